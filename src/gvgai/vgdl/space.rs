//! GVG-AI's `GameSpace` game class: a `BasicGame` whose `ParameterSet` section names game
//! parameters (`NAME > values=min:step:max [value=V] [string=Label]`, or `values=True:False`
//! for a flag). Every comma-separated entry of a `key=value` parameter in the SpriteSet, the
//! InteractionSet and the TerminationSet that is a parameter's name stands for that
//! parameter's value. The level mapping, the game line and a sprite's `singleton=` are read
//! as written: GVG-AI's parser reads `singleton` before it puts the values in, so a
//! parameter there never makes a singleton.
//!
//! A parameter's value is its `value=`, written as GVG-AI writes it (`Integer`, `Double` or
//! `Boolean` of Java, so `value=2` of a decimal range reads `2.0`). A parameter without
//! `value=` has no fixed value in GVG-AI, which draws one of its values from an unseeded
//! generator whenever it reads the parameter; tablero takes the first value of its range and
//! says so in a warning.

use super::VgdlError;
use super::syntax::{Item, Node, build_tree, tokenize};

/// A `GameSpace` description rewritten as the `BasicGame` it stands for.
pub(super) struct Expanded {
    /// The description with the parameters replaced by their values and the ParameterSet
    /// blanked (line numbers are kept).
    pub(super) text: String,
    /// Each parameter with the value it was given, in declaration order.
    pub(super) parameters: Vec<(String, String)>,
    pub(super) warnings: Vec<String>,
}

/// The game class of a `GameSpace`.
pub(super) const GAME_SPACE: &str = "GameSpace";

/// If the game's class is `GameSpace`, the description with its parameters replaced.
pub(super) fn expand(text: &str) -> Result<Option<Expanded>, VgdlError> {
    let (nodes, root) = build_tree(text)?;
    let root_node = &nodes[root];
    let class = tokenize(root_node.line, root_node.content)?
        .lhs
        .first()
        .cloned();
    if class != Some(Item::Word(GAME_SPACE)) {
        return Ok(None);
    }
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut parameters: Vec<(String, String)> = Vec::new();
    let mut warnings = Vec::new();
    let mut rewrite: Vec<usize> = Vec::new();
    for &c in &root_node.children {
        let section = &nodes[c];
        if section.content.eq_ignore_ascii_case("ParameterSet") {
            for &p in &section.children {
                let (name, value) = parameter(&nodes[p], &mut warnings)?;
                parameters.retain(|(n, _)| *n != name);
                parameters.push((name, value));
            }
            blank(&nodes, c, &mut lines);
        } else if ["SpriteSet", "InteractionSet", "TerminationSet"]
            .iter()
            .any(|s| s.eq_ignore_ascii_case(section.content))
        {
            descendants(&nodes, c, &mut rewrite);
        }
    }
    let originals: Vec<&str> = text.lines().collect();
    for n in rewrite {
        let node = &nodes[n];
        if let (Some(line), Some(raw)) =
            (lines.get_mut(node.line - 1), originals.get(node.line - 1))
        {
            *line = substituted(node, raw, &parameters)?;
        }
    }
    Ok(Some(Expanded {
        text: lines.join("\n") + "\n",
        parameters,
        warnings,
    }))
}

/// The nodes under `n` (not `n` itself), depth first.
fn descendants(nodes: &[Node<'_>], n: usize, out: &mut Vec<usize>) {
    for &c in &nodes[n].children {
        out.push(c);
        descendants(nodes, c, out);
    }
}

/// Empty the lines of node `n` and everything under it.
fn blank(nodes: &[Node<'_>], n: usize, lines: &mut [String]) {
    let mut all = vec![n];
    descendants(nodes, n, &mut all);
    for i in all {
        if let Some(line) = lines.get_mut(nodes[i].line - 1) {
            line.clear();
        }
    }
}

/// The line of `node` (`raw`, the text the node was read from) with each parameter value
/// rewritten by [`decorated`].
fn substituted(
    node: &Node<'_>,
    raw: &str,
    parameters: &[(String, String)],
) -> Result<String, VgdlError> {
    let t = tokenize(node.line, node.content)?;
    let base = raw.as_ptr() as usize;
    let mut out = raw.to_string();
    let values: Vec<&str> = t
        .lhs
        .iter()
        .chain(t.rhs.iter().flatten())
        .filter_map(|it| match it {
            Item::Param(k, v) if *k != "singleton" => Some(*v),
            _ => None,
        })
        .collect();
    // Splice from the end so that earlier offsets stay valid.
    for v in values.iter().rev() {
        let start = (v.as_ptr() as usize).wrapping_sub(base);
        if start.checked_add(v.len()).is_some_and(|e| e <= raw.len()) {
            out.replace_range(start..start + v.len(), &decorated(v, parameters));
        }
    }
    Ok(out)
}

/// A parameter value with every comma-separated entry that names a game parameter replaced by
/// that parameter's value (GVG-AI splits at commas and drops trailing empty entries).
fn decorated(value: &str, parameters: &[(String, String)]) -> String {
    let mut entries: Vec<&str> = value.split(',').collect();
    while entries.last() == Some(&"") {
        entries.pop();
    }
    if entries.is_empty() {
        return value.to_string();
    }
    entries
        .iter()
        .map(|e| {
            parameters
                .iter()
                .find(|(n, _)| n == e)
                .map_or(*e, |(_, v)| v.as_str())
        })
        .collect::<Vec<&str>>()
        .join(",")
}

/// The kinds of game parameters.
enum Kind {
    Int(i32),
    Double(f64),
    Flag(bool),
}

/// One ParameterSet line: the parameter's name and value.
fn parameter(n: &Node<'_>, warnings: &mut Vec<String>) -> Result<(String, String), VgdlError> {
    let t = tokenize(n.line, n.content)?;
    let mut items = t.lhs.iter().chain(t.rhs.iter().flatten());
    let Some(Item::Word(name)) = items.next() else {
        return Err(bad(
            n.line,
            "a game parameter must be \"NAME > values=...\"",
        ));
    };
    let params: Vec<(&str, &str)> = items
        .filter_map(|it| match it {
            Item::Param(k, v) => Some((*k, *v)),
            Item::Word(_) => None,
        })
        .collect();
    let get = |key: &str| {
        params
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
    };
    if params.is_empty() {
        // GVG-AI's parameter without settings stands for the empty string.
        return Ok((name.to_string(), String::new()));
    }
    let Some(values) = get("values") else {
        return Err(bad(
            n.line,
            &format!("game parameter {name} has no values="),
        ));
    };
    let first = first_value(n.line, name, values)?;
    let value = match get("value") {
        Some(v) => fixed(n.line, name, &first, v)?,
        None => {
            let v = written(&first);
            warnings.push(format!(
                "line {}: game parameter {name} has no value= (GVG-AI draws one of its values \
                 at random, unseeded, each time it reads it); tablero uses the first, {v}",
                n.line
            ));
            v
        }
    };
    Ok((name.to_string(), value))
}

/// The first value of a `values=` range, which also gives the parameter's kind.
fn first_value(line: usize, name: &str, values: &str) -> Result<Kind, VgdlError> {
    let v: Vec<&str> = values.split(':').collect();
    let wrong = || {
        bad(
            line,
            &format!("game parameter {name}: values={values} is not a range"),
        )
    };
    if v.len() == 3 {
        if v.iter().any(|x| x.contains('.')) {
            let r: Result<Vec<f64>, _> = v.iter().map(|x| x.trim().parse::<f64>()).collect();
            return r.map(|r| Kind::Double(r[0])).map_err(|_| wrong());
        }
        let r: Result<Vec<i32>, _> = v.iter().map(|x| x.parse::<i32>()).collect();
        return r.map(|r| Kind::Int(r[0])).map_err(|_| wrong());
    }
    let flag = |x: &str| x.eq_ignore_ascii_case("true") || x.eq_ignore_ascii_case("false");
    match v.as_slice() {
        [a, b, ..] if flag(a) && flag(b) => Ok(Kind::Flag(a.eq_ignore_ascii_case("true"))),
        _ => Err(wrong()),
    }
}

/// The value `value=` fixes, of the kind of `first`.
fn fixed(line: usize, name: &str, first: &Kind, value: &str) -> Result<String, VgdlError> {
    let wrong = || {
        bad(
            line,
            &format!("game parameter {name}: value={value} is not of its kind"),
        )
    };
    Ok(match first {
        Kind::Int(_) => written(&Kind::Int(value.parse::<i32>().map_err(|_| wrong())?)),
        Kind::Double(_) => written(&Kind::Double(
            value.trim().parse::<f64>().map_err(|_| wrong())?,
        )),
        Kind::Flag(_) => written(&Kind::Flag(value.eq_ignore_ascii_case("true"))),
    })
}

/// A value as Java writes it (`Integer.toString`, `Double.toString`, `Boolean.toString`).
fn written(k: &Kind) -> String {
    match k {
        Kind::Int(v) => v.to_string(),
        Kind::Flag(b) => b.to_string(),
        Kind::Double(x) => java_double(*x),
    }
}

/// Java's `Double.toString`: plain decimals with at least one fraction digit in
/// [10^-3, 10^7), otherwise `d.dddE±n`.
fn java_double(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let a = x.abs();
    if a == 0.0 || (1e-3..1e7).contains(&a) {
        return format!("{x:?}");
    }
    let s = format!("{x:e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((s.as_str(), "0"));
    if mantissa.contains('.') {
        format!("{mantissa}E{exp}")
    } else {
        format!("{mantissa}.0E{exp}")
    }
}

fn bad(line: usize, message: &str) -> VgdlError {
    VgdlError::Semantic {
        line,
        message: message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_written_as_java_writes_them() {
        assert_eq!(java_double(0.5), "0.5");
        assert_eq!(java_double(2.0), "2.0");
        assert_eq!(java_double(-0.0), "-0.0");
        assert_eq!(java_double(1e-4), "1.0E-4");
        assert_eq!(java_double(1.5e7), "1.5E7");
        assert_eq!(written(&Kind::Flag(true)), "true");
    }

    #[test]
    fn entries_naming_parameters_are_replaced() {
        let p = vec![("A".to_string(), "3".to_string())];
        assert_eq!(decorated("A", &p), "3");
        assert_eq!(decorated("1,A", &p), "1,3");
        assert_eq!(decorated("A,,", &p), "3");
        assert_eq!(decorated("B", &p), "B");
        assert_eq!(decorated(",", &p), ",");
    }

    #[test]
    fn a_game_space_is_read_with_its_parameter_values() {
        let text = "GameSpace\n  SpriteSet\n    a > Missile speed=SP cooldown=CD singleton=F\n  \
                    ParameterSet\n    SP > values=0.1:0.1:1.0 value=0.5\n    \
                    CD > values=1:1:5\n    F > values=True:False value=false\n";
        let e = expand(text).unwrap().unwrap();
        assert!(
            e.text
                .contains("a > Missile speed=0.5 cooldown=1 singleton=F"),
            "{}",
            e.text
        );
        assert!(!e.text.contains("ParameterSet"));
        assert_eq!(e.text.lines().count(), text.lines().count());
        assert_eq!(e.parameters[2], ("F".to_string(), "false".to_string()));
        assert_eq!(e.warnings.len(), 1, "{:?}", e.warnings);
        assert!(expand("BasicGame\n  SpriteSet\n").unwrap().is_none());
        let bad = "GameSpace\n  ParameterSet\n    X > values=1:2\n";
        assert!(expand(bad).is_err());
    }
}
