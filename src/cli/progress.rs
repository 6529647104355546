//! Progress of long jobs (games, generations) on stderr: when stderr is a terminal, a bar with
//! the count, elapsed time and ETA, with each step's line printed above it; otherwise (logs,
//! pipes, CI) one plain line per step. The result stays the one JSON line on stdout.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A job of `total` steps.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar on a terminal, plain lines elsewhere; `unit` names a step ("games").
    pub fn new(total: usize, unit: &str) -> Self {
        Self::with_bar(total, unit, std::io::stderr().is_terminal())
    }

    fn with_bar(total: usize, unit: &str, bar: bool) -> Self {
        if !bar {
            return Progress { bar: None };
        }
        let template =
            format!("{{bar:40}} {{pos}}/{{len}} {unit}  {{elapsed}} elapsed, ETA {{eta}}");
        let style = ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| ProgressStyle::default_bar());
        let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
        bar.set_style(style);
        Progress { bar: Some(bar) }
    }

    /// One step done, described by `line`.
    pub fn step(&self, line: &str) {
        match &self.bar {
            Some(bar) => {
                bar.println(line);
                bar.inc(1);
            }
            None => eprintln!("{line}"),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bar_counts_steps_and_plain_output_has_none() {
        let p = Progress::with_bar(3, "games", true);
        p.step("game 1/3");
        p.step("game 2/3");
        assert_eq!(p.bar.as_ref().map(|b| b.position()), Some(2));
        assert_eq!(p.bar.as_ref().and_then(|b| b.length()), Some(3));
        let plain = Progress::with_bar(3, "games", false);
        plain.step("game 1/3");
        assert!(plain.bar.is_none());
    }
}
