//! The TerminationSet: one `Kind key=value ...` line per way the game ends.

use super::VgdlError;
use super::coverage::{Construct, SUPPORTED_TERMINATIONS, refuse};
use super::model::*;
use super::params::{Params, need_type, one_type};
use super::sprites::Resolver;
use super::syntax::{Item, Node, params_of, tokenize};

/// One TerminationSet line.
pub(super) fn termination_line(
    r: &Resolver<'_>,
    n: &Node<'_>,
    warnings: &mut Vec<String>,
) -> Result<Termination, VgdlError> {
    let t = tokenize(n.line, n.content)?;
    let (kind_name, rest) = match (t.lhs.split_first(), &t.rhs) {
        (Some((Item::Word(k), rest)), None) => (*k, rest),
        _ => {
            return Err(VgdlError::Syntax {
                line: n.line,
                message: format!(
                    "termination \"{}\" must be \"Kind key=value ...\"",
                    n.content
                ),
            });
        }
    };
    if !SUPPORTED_TERMINATIONS.contains(&kind_name) {
        return Err(refuse(Construct::Termination, kind_name, n.line));
    }
    let items = params_of(rest, n.line, "a termination")?;
    let mut p = Params::new(n.line, format!("termination {kind_name}"), items);
    let wins = p
        .raw("win")
        .filter(|v| v.contains(','))
        .map(|v| {
            v.split(',')
                .map(|w| w.trim().eq_ignore_ascii_case("true"))
                .collect()
        })
        .unwrap_or_default();
    let win = p.boolean("win")?.unwrap_or(false);
    let limit = p.int("limit")?.unwrap_or(0);
    let count_score = p.boolean("count_score")?.unwrap_or(false);
    if p.boolean("use_counter")?.unwrap_or(false) {
        return Err(p.err("unsupported use_counter=True (game counters)".into()));
    }
    p.ignore(&["compare", "limits"]);
    let kind = termination_kind(r, &mut p, kind_name, limit)?;
    p.finish(warnings)?;
    Ok(Termination {
        kind,
        win,
        wins,
        count_score,
        line: n.line,
    })
}

/// The termination `kind_name` with its remaining parameters.
fn termination_kind(
    r: &Resolver<'_>,
    p: &mut Params<'_>,
    kind_name: &str,
    limit: i32,
) -> Result<TerminationKind, VgdlError> {
    Ok(match kind_name {
        "SpriteCounter" => TerminationKind::SpriteCounter {
            stype: need_type(r, p, "stype")?,
            limit,
        },
        "MultiSpriteCounter" | "StopCounter" => {
            let mut stypes = Vec::new();
            for key in ["stype1", "stype2", "stype3"] {
                if let Some(t) = one_type(r, p, key)? {
                    stypes.push(t);
                }
            }
            let min = p.boolean("min")?.unwrap_or(false);
            if kind_name == "StopCounter" {
                TerminationKind::StopCounter { stypes, limit, min }
            } else {
                TerminationKind::MultiSpriteCounter { stypes, limit, min }
            }
        }
        "Timeout" => TerminationKind::Timeout { limit },
        "SpriteCounterMore" => TerminationKind::SpriteCounterMore {
            stype: need_type(r, p, "stype")?,
            limit,
        },
        "MultiSpriteCounterSubTypes" => TerminationKind::MultiSpriteCounterSubTypes {
            stype: need_type(r, p, "stype1")?,
            limit,
            subtypes: p.int("subTypesNum")?.unwrap_or(-1),
        },
        other => return Err(p.err(format!("unknown termination \"{other}\""))),
    })
}
