//! Plugin options: the `key=value,key=value` string a user passes with `--options`.

use std::collections::BTreeMap;
use std::str::FromStr;

/// Parsed options. A solver takes the keys it knows; any key left over is an error.
#[derive(Clone, Debug, Default)]
pub struct Options {
    values: BTreeMap<String, String>,
    known: Vec<&'static str>,
}

impl Options {
    /// Parses `key=value` pairs separated by commas (or whitespace). An empty string
    /// gives no options.
    pub fn parse(text: &str) -> Result<Options, String> {
        let mut values = BTreeMap::new();
        for pair in text.split(|c: char| c == ',' || c.is_whitespace()) {
            if pair.is_empty() {
                continue;
            }
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| format!("option `{pair}` is not of the form key=value"))?;
            let key = key.trim();
            if key.is_empty() {
                return Err(format!("option `{pair}` has an empty key"));
            }
            if values.insert(key.to_string(), value.trim().to_string()).is_some() {
                return Err(format!("option `{key}` is given twice"));
            }
        }
        Ok(Options {
            values,
            known: Vec::new(),
        })
    }

    /// Takes `key` parsed as `T`, or `default` when it is absent. A value that does not
    /// parse is an error naming the key and the value.
    pub fn get<T: FromStr>(&mut self, key: &'static str, default: T) -> Result<T, String> {
        Ok(self.get_opt(key)?.unwrap_or(default))
    }

    /// Takes `key` parsed as `T`, or `None` when it is absent.
    pub fn get_opt<T: FromStr>(&mut self, key: &'static str) -> Result<Option<T>, String> {
        self.known.push(key);
        match self.values.remove(key) {
            None => Ok(None),
            Some(text) => text
                .parse()
                .map(Some)
                .map_err(|_| format!("option `{key}`: cannot read `{text}` as {}", short_type_name::<T>())),
        }
    }

    /// Fails if any key was not taken, listing the keys the solver knows.
    pub fn finish(self) -> Result<(), String> {
        match self.values.keys().next() {
            None => Ok(()),
            Some(key) if self.known.is_empty() => Err(format!("unknown option `{key}` (this plugin takes no options)")),
            Some(key) => Err(format!("unknown option `{key}` (known: {})", self.known.join(", "))),
        }
    }
}

fn short_type_name<T>() -> &'static str {
    let full = std::any::type_name::<T>();
    match full {
        "f64" | "f32" => "a number",
        "u8" | "u16" | "u32" | "u64" | "usize" => "a whole number",
        "i8" | "i16" | "i32" | "i64" | "isize" => "an integer",
        "bool" => "true or false",
        _ => full.rsplit("::").next().unwrap_or(full),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_checks_every_key() {
        let mut options = Options::parse("playouts=50, w1=-1.5").unwrap();
        assert_eq!(options.get("playouts", 10u32), Ok(50));
        assert_eq!(options.get("w1", 0.0f64), Ok(-1.5));
        assert_eq!(options.get("depth", 2u32), Ok(2));
        assert_eq!(options.finish(), Ok(()));
    }

    #[test]
    fn errors_name_the_key_and_value() {
        let mut options = Options::parse("playouts=many").unwrap();
        assert_eq!(
            options.get("playouts", 10u32),
            Err("option `playouts`: cannot read `many` as a whole number".to_string())
        );
        let mut options = Options::parse("depht=2").unwrap();
        options.get("depth", 1u32).unwrap();
        assert_eq!(
            options.finish(),
            Err("unknown option `depht` (known: depth)".to_string())
        );
        assert!(Options::parse("depth").is_err());
        assert!(Options::parse("a=1,a=2").is_err());
        assert_eq!(
            Options::parse("x=1").unwrap().finish(),
            Err("unknown option `x` (this plugin takes no options)".to_string())
        );
    }
}
