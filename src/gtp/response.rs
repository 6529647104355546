//! GTP output framing: `=[id] result\n\n` and `?[id] message\n\n`, with results sanitised so
//! that a response never contains an empty line, and the pieces of a streamed (analysis)
//! response: `=[id]` line, body lines, one closing empty line.

/// The lines of `text` with CR/control characters removed, trailing spaces trimmed and
/// empty or whitespace-only lines dropped.
fn clean_lines(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split('\n')
        .map(|line| {
            line.chars()
                .map(|c| if c == '\t' { ' ' } else { c })
                .filter(|c| !c.is_control())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .filter(|line| !line.trim().is_empty())
}

/// A multi-line result made safe for GTP: no empty lines, no CR, no trailing newline.
pub fn sanitize(text: &str) -> String {
    clean_lines(text).collect::<Vec<_>>().join("\n")
}

fn prefix(status: char, id: Option<u64>) -> String {
    match id {
        Some(id) => format!("{status}{id}"),
        None => status.to_string(),
    }
}

fn frame(status: char, id: Option<u64>, text: &str) -> String {
    let mut out = prefix(status, id);
    let body = sanitize(text);
    if !body.is_empty() {
        // A result that starts with a newline (a diagram) begins on the next line.
        out.push(if text.starts_with('\n') { '\n' } else { ' ' });
        out.push_str(&body);
    }
    out.push_str("\n\n");
    out
}

/// `=[id] result\n\n` (`=[id]\n\n` for an empty result).
pub fn success(id: Option<u64>, result: &str) -> String {
    frame('=', id, result)
}

/// `?[id] message\n\n`.
pub fn failure(id: Option<u64>, message: &str) -> String {
    frame('?', id, message)
}

/// The first line of a streamed success response.
pub fn stream_start(id: Option<u64>) -> String {
    let mut out = prefix('=', id);
    out.push('\n');
    out
}

/// Body lines of a streamed response (each sanitised, none empty), newline-terminated.
pub fn stream_lines(text: &str) -> String {
    let mut out = String::new();
    for line in clean_lines(text) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The closing empty line of a streamed response.
pub const STREAM_END: &str = "\n";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framing() {
        assert_eq!(success(None, ""), "=\n\n");
        assert_eq!(success(Some(3), ""), "=3\n\n");
        assert_eq!(success(Some(3), "2"), "=3 2\n\n");
        assert_eq!(failure(None, "illegal move"), "? illegal move\n\n");
        assert_eq!(failure(Some(0), "cannot undo"), "?0 cannot undo\n\n");
    }

    #[test]
    fn results_never_contain_empty_lines() {
        assert_eq!(success(None, "a\n\n b \r\n\t\nc\n"), "= a\n b\nc\n\n");
        assert_eq!(
            success(Some(1), "\n  A B\n\n1 . .\n"),
            "=1\n  A B\n1 . .\n\n"
        );
        assert_eq!(success(None, "\n\n"), "=\n\n");
        let s = success(None, "x\u{0}y\n\u{7}\n");
        assert_eq!(s, "= xy\n\n");
    }

    #[test]
    fn streaming() {
        let mut out = stream_start(Some(9));
        out.push_str(&stream_lines(
            "info move D4 visits 3\n\ninfo move C3 visits 1",
        ));
        out.push_str(STREAM_END);
        assert_eq!(out, "=9\ninfo move D4 visits 3\ninfo move C3 visits 1\n\n");
    }

    proptest::proptest! {
        #[test]
        fn any_result_is_one_well_framed_response(text in "(?s).*", id in proptest::option::of(0u64..1000)) {
            for framed in [success(id, &text), failure(id, &text)] {
                proptest::prop_assert!(framed.ends_with("\n\n"));
                let body = &framed[..framed.len() - 2];
                proptest::prop_assert!(!body.contains("\n\n"), "{:?}", framed);
                proptest::prop_assert!(!body.ends_with('\n'));
                proptest::prop_assert!(!framed.contains('\r'));
            }
        }
    }
}
