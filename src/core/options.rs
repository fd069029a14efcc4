//! Engine option declarations in the form every UCI-style protocol prints them.

use std::fmt;

/// The kind and default of an option.
#[derive(Clone, Debug)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin { default: i64, min: i64, max: i64 },
    /// `true` or `false`.
    Check { default: bool },
    /// One of a fixed list of words.
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
    },
    /// An action without a value.
    Button,
    /// Free text.
    Text { default: &'static str },
}

/// A rule option as data: its declaration, and what a value its declaration accepted
/// (normalised: `true`/`false`, an integer, a listed word) does to a position of `G`.
pub struct RuleOption<G> {
    pub spec: OptionSpec,
    pub apply: fn(&mut G, &str) -> anyhow::Result<()>,
}

/// One option: its name and kind.
#[derive(Clone, Debug)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
}

impl OptionSpec {
    /// Checks a value sent with `setoption` and normalises it (`true`/`false`, integers).
    pub fn validate(&self, value: &str) -> Result<String, String> {
        match &self.kind {
            OptionKind::Spin { min, max, .. } => match value.parse::<i64>() {
                Ok(v) if (*min..=*max).contains(&v) => Ok(v.to_string()),
                _ => Err(format!(
                    "option {} needs an integer in {min}..={max}, got '{value}'",
                    self.name
                )),
            },
            OptionKind::Check { .. } => match value.to_ascii_lowercase().as_str() {
                "true" => Ok("true".into()),
                "false" => Ok("false".into()),
                _ => Err(format!(
                    "option {} needs true or false, got '{value}'",
                    self.name
                )),
            },
            OptionKind::Combo { vars, .. } => vars
                .iter()
                .find(|v| v.eq_ignore_ascii_case(value))
                .map(|v| v.to_string())
                .ok_or_else(|| {
                    format!(
                        "option {} needs one of {}, got '{value}'",
                        self.name,
                        vars.join(" ")
                    )
                }),
            OptionKind::Button => Ok(String::new()),
            OptionKind::Text { .. } => Ok(value.to_string()),
        }
    }
}

impl fmt::Display for OptionSpec {
    /// The declaration line sent after `uci`/`usi`/`ugi`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))
            }
            OptionKind::Button => write!(f, "button"),
            OptionKind::Text { default } => {
                let shown = if default.is_empty() {
                    "<empty>"
                } else {
                    default
                };
                write!(f, "string default {shown}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spin_validation_and_declaration() {
        let spec = OptionSpec {
            name: "Hash",
            kind: OptionKind::Spin {
                default: 16,
                min: 1,
                max: 1024,
            },
        };
        assert_eq!(spec.validate("64"), Ok("64".to_string()));
        assert!(spec.validate("0").is_err());
        assert!(spec.validate("x").is_err());
        assert_eq!(
            spec.to_string(),
            "option name Hash type spin default 16 min 1 max 1024"
        );
    }
}
