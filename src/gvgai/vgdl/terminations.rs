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
    let mut kind = termination_kind(r, &mut p, kind_name, limit)?;
    if let TerminationKind::Timeout { counters, .. } = &mut kind {
        *counters = counter_rule(&mut p)?;
    }
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
        "Timeout" => TerminationKind::Timeout {
            limit,
            counters: None,
        },
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

/// The `use_counter`, `compare` and `limits` parameters of a `Timeout`.
fn counter_rule(p: &mut Params<'_>) -> Result<Option<CounterRule>, VgdlError> {
    let use_counter = p.boolean("use_counter")?.unwrap_or(false);
    let compare = p.boolean("compare")?.unwrap_or(false);
    let limits = p.text_field("limits", "0");
    if !use_counter {
        return Ok(None);
    }
    if compare {
        return Ok(Some(CounterRule::Compare));
    }
    let mut items: Vec<&str> = limits.split(',').collect();
    while items.last() == Some(&"") {
        items.pop();
    }
    let values = items
        .iter()
        .map(|v| v.parse::<i32>())
        .collect::<Result<Vec<i32>, _>>()
        .map_err(|_| {
            p.err(format!(
                "limits={limits} of {} is not a list of integers",
                p.what
            ))
        })?;
    Ok(Some(CounterRule::Limits(values)))
}
