//! SPSA of any UCI engine's options, as fishtest and OpenBench tune engines:
//! each parameter is a `spin` option of the engine, theta+ and theta- are
//! two copies of the same engine whose options differ (sent with
//! `setoption` in the handshake, through the match runner's
//! `option.NAME=VALUE` settings), and the games are those of
//! [`IterationGames`], so only the objective differs from the in-process
//! tuner: the schedule, the perturbations and the resume are [`crate::spsa`]'s.
//!
//! A parameter is given as `NAME=START,MIN,MAX[,C_END[,R_END]]`
//! ([`OptionParam::parse`]) and checked against the options the engine
//! declares in its `uci` reply ([`check_options`]) before any game: the
//! option must exist and be a spin option, and `MIN..=MAX` must lie within
//! its declared `min`/`max`. Spin options are integers, so every value sent
//! is `theta` rounded to the nearest integer (as the in-process tuner rounds
//! the weights).

use crate::spsa::{IterationGames, Objective};
use crate::{Error, Result};
use arena::external::UciOption;
use arena::{EngineConfig, EngineKind};

/// One `--param NAME=START,MIN,MAX[,C_END[,R_END]]`: an option to tune, its
/// start, its bounds and (if given) its own schedule ends.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionParam {
    /// The option's name as given (the trace column).
    pub name: String,
    /// Starting value.
    pub start: f64,
    /// Lowest value tried.
    pub min: f64,
    /// Highest value tried.
    pub max: f64,
    /// Perturbation at the last iteration, if given.
    pub c_end: Option<f64>,
    /// `a_end / c_end^2` at the last iteration, if given.
    pub r_end: Option<f64>,
}

impl OptionParam {
    /// Parses `NAME=START,MIN,MAX[,C_END[,R_END]]`: finite numbers with
    /// `MIN < MAX`, `START` within them, `C_END` and `R_END` above 0.
    pub fn parse(text: &str) -> Result<OptionParam> {
        let bad = |message: &str| Error::BadParam {
            text: text.to_string(),
            message: message.to_string(),
        };
        let (name, values) = text
            .split_once('=')
            .ok_or_else(|| bad("expected NAME=START,MIN,MAX[,C_END[,R_END]]"))?;
        let name = name.trim();
        if name.is_empty() {
            return Err(bad("no option name before ="));
        }
        let numbers = values
            .split(',')
            .map(|v| v.trim().parse::<f64>().ok().filter(|x| x.is_finite()))
            .collect::<Option<Vec<f64>>>()
            .ok_or_else(|| bad("the values must be numbers"))?;
        if !(3..=5).contains(&numbers.len()) {
            return Err(bad("expected 3 to 5 values: START,MIN,MAX[,C_END[,R_END]]"));
        }
        let (start, min, max) = (numbers[0], numbers[1], numbers[2]);
        if min >= max {
            return Err(bad("MIN must be below MAX"));
        }
        if !(min..=max).contains(&start) {
            return Err(bad("START must be within MIN..MAX"));
        }
        let positive = |i: usize, what: &str| match numbers.get(i) {
            Some(&v) if v <= 0.0 => Err(bad(&format!("{what} must be above 0"))),
            v => Ok(v.copied()),
        };
        Ok(OptionParam {
            name: name.to_string(),
            start,
            min,
            max,
            c_end: positive(3, "C_END")?,
            r_end: positive(4, "R_END")?,
        })
    }
}

/// Checks `params` against the options the engine `declared`: each names a
/// spin option (case-insensitively, as UCI names are), once, and its
/// `MIN..=MAX` lies within the option's declared `min`/`max`. Returns the
/// options' names as the engine spells them, in the order of `params`.
pub fn check_options(params: &[OptionParam], declared: &[UciOption]) -> Result<Vec<String>> {
    let mut names: Vec<String> = Vec::new();
    for p in params {
        let Some(o) = declared
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(&p.name))
        else {
            let spins: Vec<&str> = declared
                .iter()
                .filter(|o| o.kind == "spin")
                .map(|o| o.name.as_str())
                .collect();
            return Err(Error::UnknownOption {
                name: p.name.clone(),
                offered: if spins.is_empty() {
                    "none".into()
                } else {
                    spins.join(", ")
                },
            });
        };
        if o.kind != "spin" {
            return Err(Error::NotSpin {
                name: o.name.clone(),
                kind: o.kind.clone(),
            });
        }
        if names.iter().any(|n| n == &o.name) {
            return Err(Error::DuplicateParam(o.name.clone()));
        }
        let low = o.min.map_or(f64::NEG_INFINITY, |v| v as f64);
        let high = o.max.map_or(f64::INFINITY, |v| v as f64);
        if p.min < low || p.max > high {
            return Err(Error::OutOfRange {
                name: o.name.clone(),
                min: p.min,
                max: p.max,
                declared: format!(
                    "{}..{}",
                    o.min.map_or("?".into(), |v| v.to_string()),
                    o.max.map_or("?".into(), |v| v.to_string())
                ),
            });
        }
        names.push(o.name.clone());
    }
    Ok(names)
}

/// The value sent for `theta` of a spin option: the nearest integer.
pub fn spin_value(theta: f64) -> i64 {
    theta.round() as i64
}

/// `setoption` lines for `values` of the options `names` (rounded): what
/// to paste into a GUI or an engine's defaults.
pub fn setoption_lines(names: &[String], values: &[f64]) -> String {
    names
        .iter()
        .zip(values)
        .map(|(n, &v)| format!("setoption name {n} value {}\n", spin_value(v)))
        .collect()
}

/// Games between two copies of an external UCI engine whose `options`
/// are set to `theta+` and `theta-` (rounded), each started with the
/// settings of `engine` (its command, limits, other options).
#[derive(Clone, Debug)]
pub struct UciObjective {
    /// The games of an iteration.
    pub games: IterationGames,
    /// The engine's settings (external, UCI).
    pub engine: EngineConfig,
    /// The tuned options, as the engine spells them.
    pub options: Vec<String>,
}

impl UciObjective {
    /// The engine named `name` with the options set to `theta` (rounded).
    pub fn player(&self, name: &str, theta: &[f64]) -> EngineConfig {
        let mut e = self.engine.clone();
        e.name = name.to_string();
        if let EngineKind::External(x) = &mut e.kind {
            for (o, &v) in self.options.iter().zip(theta) {
                x.options.push((o.clone(), spin_value(v).to_string()));
            }
        }
        e
    }
}

impl Objective for UciObjective {
    fn compare(&mut self, k: usize, plus: &[f64], minus: &[f64]) -> Result<f64> {
        let variant = self.games.variant;
        let factory = move |s: &EngineConfig| s.start_for(variant);
        self.games.play(
            k,
            self.player("plus", plus),
            self.player("minus", minus),
            &factory,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena::external::parse_uci_option;

    #[test]
    fn params_parse_with_optional_schedule_ends() {
        let p = OptionParam::parse("material.queen=600,0,2000").unwrap();
        assert_eq!(
            p,
            OptionParam {
                name: "material.queen".into(),
                start: 600.0,
                min: 0.0,
                max: 2000.0,
                c_end: None,
                r_end: None,
            }
        );
        let p = OptionParam::parse("Skill = 5, 0, 20, 1.5, 0.01").unwrap();
        assert_eq!(
            (p.name.as_str(), p.c_end, p.r_end),
            ("Skill", Some(1.5), Some(0.01))
        );
        for (text, why) in [
            ("queen", "expected NAME="),
            ("=1,0,2", "no option name"),
            ("q=1,0", "3 to 5 values"),
            ("q=1,0,2,1,1,1", "3 to 5 values"),
            ("q=a,0,2", "numbers"),
            ("q=1,0,inf", "numbers"),
            ("q=1,2,0", "MIN must be below MAX"),
            ("q=3,0,2", "START must be within"),
            ("q=1,0,2,0", "C_END must be above 0"),
            ("q=1,0,2,1,-1", "R_END must be above 0"),
        ] {
            let e = OptionParam::parse(text).unwrap_err().to_string();
            assert!(e.contains(why) && e.contains(text), "{text}: {e}");
        }
    }

    #[test]
    fn params_are_checked_against_the_declared_options() {
        let declared: Vec<UciOption> = [
            "option name Hash type spin default 16 min 1 max 1024",
            "option name Move Overhead type spin default 15 min 0 max 5000",
            "option name Ponder type check default false",
        ]
        .iter()
        .map(|l| parse_uci_option(l).unwrap())
        .collect();
        let p = |t: &str| OptionParam::parse(t).unwrap();
        let names = check_options(&[p("hash=16,1,64"), p("Move Overhead=10,0,100")], &declared);
        assert_eq!(names.unwrap(), ["Hash", "Move Overhead"]);
        let e = check_options(&[p("Skill=1,0,2")], &declared).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the engine has no option \"Skill\" (its spin options: Hash, Move Overhead)"
        );
        let e = check_options(&[p("Ponder=1,0,1")], &declared).unwrap_err();
        assert!(e.to_string().contains("check option"), "{e}");
        let e = check_options(&[p("Hash=16,0,64")], &declared).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--param Hash: 0..64 is outside the engine's range 1..1024"
        );
        let e = check_options(&[p("Hash=16,1,64"), p("HASH=8,1,9")], &declared).unwrap_err();
        assert!(e.to_string().contains("twice"), "{e}");
    }

    #[test]
    fn values_are_rounded_into_setoption_lines() {
        let names = vec!["A".to_string(), "B b".to_string()];
        assert_eq!(
            setoption_lines(&names, &[1.49, -2.5]),
            "setoption name A value 1\nsetoption name B b value -3\n"
        );
    }
}
