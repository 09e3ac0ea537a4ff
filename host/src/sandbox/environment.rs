//! The environment a sandboxed bot starts with: nothing of tetrad's but a short list of
//! harmless variables, then the manifest's own, then its scratch folder as `HOME` and
//! `TMPDIR`. The launcher itself starts with an empty environment, so nothing a manifest
//! names (`LD_PRELOAD`, say) takes effect before it has confined itself.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::Path;

/// The variables of tetrad's own environment a sandboxed bot is given: where to find
/// programs, and the language, character set and time zone to speak in. Nothing that
/// names a secret, a socket or a session (`SSH_AUTH_SOCK`, tokens, `DISPLAY`).
pub const ALLOWED: &[&str] = &["PATH", "LANG", "LANGUAGE", "TZ"];

/// Variables a manifest may not set for a sandboxed bot: the dynamic loader's and the C
/// library's, which load code into a process before its `main`.
pub fn forbidden(name: &str) -> bool {
    name.starts_with("LD_") || name == "GLIBC_TUNABLES"
}

/// Why a bot's environment was refused.
#[derive(Debug, thiserror::Error)]
#[error("a sandboxed bot may not set {name} (the dynamic loader's variables are refused under --sandbox)")]
pub struct Forbidden {
    /// The variable.
    pub name: String,
}

/// The whole environment of a sandboxed bot: [`ALLOWED`] and `LC_*` from `inherited`, then
/// `set` (the manifest's variables, `None` to remove one), then `HOME` and `TMPDIR` at
/// `scratch`.
pub fn for_bot<'a>(
    inherited: impl IntoIterator<Item = (OsString, OsString)>,
    set: impl IntoIterator<Item = (&'a std::ffi::OsStr, Option<&'a std::ffi::OsStr>)>,
    scratch: &Path,
) -> Result<Vec<(String, String)>, Forbidden> {
    let mut env: BTreeMap<String, String> = inherited
        .into_iter()
        .filter_map(|(name, value)| Some((name.into_string().ok()?, value.into_string().ok()?)))
        .filter(|(name, _)| ALLOWED.contains(&name.as_str()) || name.starts_with("LC_"))
        .collect();
    for (name, value) in set {
        let name = name.to_string_lossy().into_owned();
        if forbidden(&name) {
            return Err(Forbidden { name });
        }
        match value {
            Some(value) => env.insert(name, value.to_string_lossy().into_owned()),
            None => env.remove(&name),
        };
    }
    let scratch = scratch.display().to_string();
    env.insert("HOME".to_string(), scratch.clone());
    env.insert("TMPDIR".to_string(), scratch);
    Ok(env.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn a_bot_gets_the_allow_list_its_manifests_variables_and_its_scratch() {
        let inherited = [
            ("PATH", "/usr/bin"),
            ("LC_ALL", "C.UTF-8"),
            ("SSH_AUTH_SOCK", "/run/agent"),
            ("GITHUB_TOKEN", "secret"),
            ("HOME", "/root"),
        ]
        .map(|(n, v)| (OsString::from(n), OsString::from(v)));
        let set = [
            (OsStr::new("BOT_LEVEL"), Some(OsStr::new("3"))),
            (OsStr::new("PATH"), None),
        ];
        let env = for_bot(inherited, set, Path::new("/tmp/s")).unwrap();
        let names: Vec<&str> = env.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["BOT_LEVEL", "HOME", "LC_ALL", "TMPDIR"]);
        assert!(env.contains(&("HOME".to_string(), "/tmp/s".to_string())));
    }

    #[test]
    fn the_loaders_variables_are_refused() {
        for name in ["LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "GLIBC_TUNABLES"] {
            let set = [(OsStr::new(name), Some(OsStr::new("./evil.so")))];
            let err = for_bot([], set, Path::new("/s")).unwrap_err();
            assert!(err.to_string().contains(name), "{err}");
        }
    }
}
