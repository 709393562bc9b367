//! Parsing of the `option` lines an engine sends during the handshake.

/// The type of a UCI option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OptionKind {
    /// Boolean (`true`/`false`).
    Check,
    /// Integer within `min..=max`.
    Spin,
    /// One of a fixed list of strings (`vars`).
    Combo,
    /// Action without a value.
    Button,
    /// Free text.
    String,
}

impl OptionKind {
    /// Parses the word after `type`; `None` for unknown types.
    pub fn from_word(word: &str) -> Option<Self> {
        Some(match word {
            "check" => OptionKind::Check,
            "spin" => OptionKind::Spin,
            "combo" => OptionKind::Combo,
            "button" => OptionKind::Button,
            "string" => OptionKind::String,
            _ => return None,
        })
    }
}

/// One option advertised by an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UciOption {
    /// Option name, possibly containing spaces (e.g. `Clear Hash`).
    pub name: String,
    /// Option type.
    pub kind: OptionKind,
    /// Default value as sent; `<empty>` is turned into an empty string.
    pub default: Option<String>,
    /// Minimum value of a spin option.
    pub min: Option<i64>,
    /// Maximum value of a spin option.
    pub max: Option<i64>,
    /// Allowed values of a combo option.
    pub vars: Vec<String>,
}

/// Field keywords of an `option` line. Values may contain spaces, so each
/// value runs until the next keyword.
const FIELDS: &[&str] = &["name", "type", "default", "min", "max", "var"];

/// Parses an `option name ... type ...` line.
///
/// Returns `None` if the line is not an option line, lacks a name, or has a
/// missing or unknown type; such an option could not be set meaningfully.
/// Unparsable `min`/`max` values are left unset.
///
/// ```
/// use bastion_uci_client::{parse_option, OptionKind};
/// let opt = parse_option("option name Hash type spin default 16 min 1 max 33554432").unwrap();
/// assert_eq!((opt.name.as_str(), opt.kind), ("Hash", OptionKind::Spin));
/// assert_eq!((opt.min, opt.max), (Some(1), Some(33554432)));
/// ```
pub fn parse_option(line: &str) -> Option<UciOption> {
    let mut toks = line.split_whitespace().peekable();
    if toks.next()? != "option" {
        return None;
    }
    let mut name: Option<String> = None;
    let mut kind = None;
    let mut default = None;
    let (mut min, mut max) = (None, None);
    let mut vars = Vec::new();

    while let Some(field) = toks.next() {
        // Collect the words of this field's value. The name is special: it
        // ends only at `type`, because names such as "Skill Level Maximum
        // Error" could otherwise be cut at a word like "max".
        let mut words = Vec::new();
        while let Some(&w) = toks.peek() {
            let ends = if field == "name" { w == "type" } else { FIELDS.contains(&w) };
            if ends {
                break;
            }
            words.push(w);
            toks.next();
        }
        let value = words.join(" ");
        match field {
            "name" => name = Some(value),
            "type" => kind = OptionKind::from_word(&value),
            "default" => default = Some(if value == "<empty>" { String::new() } else { value }),
            "min" => min = value.parse().ok(),
            "max" => max = value.parse().ok(),
            "var" => vars.push(value),
            _ => {} // stray word before the first keyword: ignore
        }
    }

    let name = name.filter(|n| !n.is_empty())?;
    Some(UciOption { name, kind: kind?, default, min, max, vars })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stockfish_options() {
        let o = parse_option("option name Threads type spin default 1 min 1 max 1024").unwrap();
        assert_eq!(o.name, "Threads");
        assert_eq!(o.kind, OptionKind::Spin);
        assert_eq!(o.default.as_deref(), Some("1"));
        assert_eq!((o.min, o.max), (Some(1), Some(1024)));

        let o = parse_option("option name Clear Hash type button").unwrap();
        assert_eq!(o.name, "Clear Hash");
        assert_eq!(o.kind, OptionKind::Button);
        assert_eq!(o.default, None);

        let o = parse_option("option name Ponder type check default false").unwrap();
        assert_eq!(o.kind, OptionKind::Check);
        assert_eq!(o.default.as_deref(), Some("false"));

        let o = parse_option("option name SyzygyPath type string default <empty>").unwrap();
        assert_eq!(o.kind, OptionKind::String);
        assert_eq!(o.default.as_deref(), Some(""));
    }

    #[test]
    fn combo_with_multiword_vars() {
        let o = parse_option("option name Style type combo default Very Solid var Very Solid var Normal var Risky")
            .unwrap();
        assert_eq!(o.kind, OptionKind::Combo);
        assert_eq!(o.default.as_deref(), Some("Very Solid"));
        assert_eq!(o.vars, ["Very Solid", "Normal", "Risky"]);
    }

    #[test]
    fn name_may_contain_field_words() {
        let o = parse_option("option name Max Depth Per min type spin default 3 min 0 max 9").unwrap();
        assert_eq!(o.name, "Max Depth Per min");
        assert_eq!((o.min, o.max), (Some(0), Some(9)));
    }

    #[test]
    fn malformed_lines() {
        assert_eq!(parse_option(""), None);
        assert_eq!(parse_option("option"), None);
        assert_eq!(parse_option("option name Foo"), None);
        assert_eq!(parse_option("option name type spin"), None);
        assert_eq!(parse_option("option name Foo type wibble"), None);
        assert_eq!(parse_option("id name Foo type spin"), None);
        let o = parse_option("option name X type spin default 5 min lots max -3").unwrap();
        assert_eq!((o.min, o.max), (None, Some(-3)));
    }
}
