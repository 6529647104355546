//! SVG pictures of results: line charts with an interval band ([`chart`]) and tile maps
//! ([`tiles`]), drawn with the small SVG writer below, and the pictures tablero draws with them:
//! a match's win-rate curve ([`win_rate`]), a Diplomacy tournament's supply centres by year
//! ([`centres`]) and a GVG-AI level ([`level`]). `evolve` draws its fitness curves with
//! [`chart`].
//!
//! Output is deterministic: the same input gives byte-identical SVG (coordinates are written
//! with one decimal, nothing depends on time, hashing or the environment). Every text is
//! escaped. `chart` and `tiles` import nothing of tablero; `level` reads the GVG-AI core's
//! level and sprite types, `win_rate` the match statistics.

use std::fmt::Write as _;

pub mod centres;
pub mod chart;
pub mod level;
pub mod tiles;
pub mod win_rate;

/// Text escaped for SVG content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // XML 1.0 forbids most control characters, even escaped.
            c if c.is_control() && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// A coordinate with one decimal (`-0.0` written as `0.0`).
pub fn num(v: f64) -> String {
    let s = format!("{v:.1}");
    if s == "-0.0" { "0.0".into() } else { s }
}

/// `x,y x,y …` for a `points` attribute.
pub fn points(pts: impl IntoIterator<Item = (f64, f64)>) -> String {
    pts.into_iter()
        .map(|(x, y)| format!("{},{}", num(x), num(y)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Approximate width of one character of the 12 px text, for laying out legends and titles.
pub const CHAR_W: f64 = 7.0;

/// The `i`-th colour of a qualitative palette (Tableau 10), cycling.
pub fn palette(i: usize) -> &'static str {
    const COLOURS: [&str; 10] = [
        "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
        "#9c755f", "#bab0ac",
    ];
    COLOURS[i % COLOURS.len()]
}

/// An SVG document being written: a white canvas of `width` × `height` pixels.
#[derive(Debug, Clone)]
pub struct Svg {
    out: String,
}

impl Svg {
    /// A document with a white background.
    pub fn new(width: f64, height: f64) -> Svg {
        let (w, h) = (num(width), num(height));
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
        );
        let _ = writeln!(out, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
        Svg { out }
    }

    /// An element `<name attrs…/>`, or `<name attrs…>text</name>` when `text` is given; the
    /// attribute values and the text are escaped.
    pub fn element(&mut self, name: &str, attrs: &[(&str, &str)], text: Option<&str>) {
        self.out.push('<');
        self.out.push_str(name);
        self.attributes(attrs);
        match text {
            Some(t) => {
                let _ = writeln!(self.out, ">{}</{name}>", escape(t));
            }
            None => self.out.push_str("/>\n"),
        }
    }

    /// An element holding a `<title>` (the tooltip viewers show, and the element's name for
    /// readers of the file).
    pub fn titled(&mut self, name: &str, attrs: &[(&str, &str)], title: &str) {
        self.open(name, attrs);
        self.element("title", &[], Some(title));
        self.close(name);
    }

    /// Opens `<name attrs…>`, closed by [`Svg::close`].
    pub fn open(&mut self, name: &str, attrs: &[(&str, &str)]) {
        self.out.push('<');
        self.out.push_str(name);
        self.attributes(attrs);
        self.out.push_str(">\n");
    }

    /// ` k="v"` for each attribute, the value escaped.
    fn attributes(&mut self, attrs: &[(&str, &str)]) {
        for (k, v) in attrs {
            let _ = write!(self.out, r#" {k}="{}""#, escape(v));
        }
    }

    /// Closes an element [`Svg::open`] opened.
    pub fn close(&mut self, name: &str) {
        let _ = writeln!(self.out, "</{name}>");
    }

    /// A text at (`x`, `y`), anchored `start`, `middle` or `end`.
    pub fn text(&mut self, x: f64, y: f64, anchor: &str, text: &str) {
        let (x, y) = (num(x), num(y));
        self.element(
            "text",
            &[("x", &x), ("y", &y), ("text-anchor", anchor)],
            Some(text),
        );
    }

    /// A straight line.
    pub fn line(&mut self, from: (f64, f64), to: (f64, f64), stroke: &str, extra: &[(&str, &str)]) {
        let at = [("x1", from.0), ("y1", from.1), ("x2", to.0), ("y2", to.1)];
        self.shape("line", &at, ("stroke", stroke), extra);
    }

    /// A filled rectangle.
    pub fn rect(&mut self, at: (f64, f64), size: (f64, f64), fill: &str, extra: &[(&str, &str)]) {
        let at = [
            ("x", at.0),
            ("y", at.1),
            ("width", size.0),
            ("height", size.1),
        ];
        self.shape("rect", &at, ("fill", fill), extra);
    }

    /// An element with coordinate attributes, one paint attribute and `extra` ones.
    fn shape(
        &mut self,
        name: &str,
        at: &[(&str, f64)],
        paint: (&str, &str),
        extra: &[(&str, &str)],
    ) {
        let values: Vec<String> = at.iter().map(|(_, v)| num(*v)).collect();
        let mut attrs: Vec<(&str, &str)> = at
            .iter()
            .zip(&values)
            .map(|((k, _), v)| (*k, v.as_str()))
            .collect();
        attrs.push(paint);
        attrs.extend_from_slice(extra);
        self.element(name, &attrs, None);
    }

    /// The finished document.
    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }
}

#[cfg(test)]
pub(crate) mod testing {
    //! Checks shared by the pictures' tests: the SVG parses as XML.

    /// The parsed document; fails the test when `svg` is not well-formed XML.
    pub fn parse(svg: &str) -> roxmltree::Document<'_> {
        match roxmltree::Document::parse(svg) {
            Ok(doc) => doc,
            Err(e) => panic!("not well-formed XML: {e}\n{svg}"),
        }
    }

    /// Elements named `name` whose `class` attribute is `class`.
    pub fn count(svg: &str, name: &str, class: &str) -> usize {
        parse(svg)
            .descendants()
            .filter(|n| n.has_tag_name(name) && n.attribute("class") == Some(class))
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_the_document_parses() {
        let mut svg = Svg::new(100.0, 50.0);
        svg.text(1.0, 2.0, "start", "a <b> & \"c\" 'd' \u{1}");
        svg.element("g", &[("class", "x\"y")], None);
        let s = svg.finish();
        let doc = testing::parse(&s);
        let text = doc
            .descendants()
            .find(|n| n.has_tag_name("text"))
            .and_then(|n| n.text())
            .unwrap();
        assert_eq!(text, "a <b> & \"c\" 'd' \u{fffd}");
        assert!(s.contains(r#"class="x&quot;y""#));
    }

    #[test]
    fn numbers_have_one_decimal_and_no_negative_zero() {
        assert_eq!(num(1.26), "1.3");
        assert_eq!(num(-0.01), "0.0");
        assert_eq!(num(3.0), "3.0");
        assert_eq!(points([(0.0, 1.0), (2.5, -3.0)]), "0.0,1.0 2.5,-3.0");
    }
}
