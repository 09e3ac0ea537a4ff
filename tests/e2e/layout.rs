//! The host's module graph: no cycle between its top-level modules, and the screens
//! import nothing from the command layer or the command line's types. The crates' graph:
//! the engine crate and the Python package link nothing of the host's.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Every top-level module of the host and the top-level modules its code names with
/// `crate::`, tests left out.
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in rust_files(&src) {
        let relative = file.strip_prefix(&src).expect("under src");
        let top = relative
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .expect("a file name")
            .trim_end_matches(".rs")
            .to_string();
        let is_test = relative.components().any(|c| c.as_os_str() == "tests")
            || relative.file_name().is_some_and(|n| n == "tests.rs");
        if ["main", "lib"].contains(&top.as_str()) || is_test {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("readable");
        // Inline test modules come last in a file.
        let code = text.split("#[cfg(test)]\nmod tests {").next().unwrap_or_default();
        let uses = graph.entry(top.clone()).or_default();
        for (at, _) in code.match_indices("crate::") {
            let name: String = code[at + 7..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if name != top && !name.is_empty() {
                uses.insert(name);
            }
        }
    }
    graph
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// A cycle through `graph`, if there is one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn the_host_modules_import_one_another_without_a_cycle() {
    let graph = module_graph();
    assert!(graph.len() > 15, "the host's modules were not found: {graph:?}");
    assert_eq!(find_cycle(&graph), None);
}

#[test]
fn the_screens_know_no_command_line() {
    let graph = module_graph();
    let tui = &graph["tui"];
    for layer in ["commands", "cli"] {
        assert!(!tui.contains(layer), "tui imports {layer}: {tui:?}");
    }
    let cycle = BTreeMap::from([
        ("a".to_string(), BTreeSet::from(["b".to_string()])),
        ("b".to_string(), BTreeSet::from(["a".to_string()])),
    ]);
    assert!(
        find_cycle(&cycle).is_some(),
        "the check finds a cycle where there is one"
    );
}

/// Crates of the host alone: the host itself, its command line, screens, charts, sandbox
/// and progress bars.
const HOST_ONLY: [&str; 8] = [
    "tetrad",
    "clap",
    "ratatui",
    "crossterm",
    "plotters",
    "landlock",
    "seccompiler",
    "indicatif",
];

#[test]
fn the_engine_crate_and_the_python_package_link_nothing_of_the_host() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut linked = BTreeSet::new();
    for package in ["tetrad-engine", "tetrad-python"] {
        let tree = Command::new(env!("CARGO"))
            .current_dir(&workspace)
            .args(["tree", "--offline", "--locked", "--edges", "normal", "--prefix", "none"])
            .args(["--format", "{p}", "--package", package])
            .output()
            .expect("cargo runs");
        let text = String::from_utf8_lossy(&tree.stdout);
        assert!(
            tree.status.success(),
            "cargo tree -p {package}: {}",
            String::from_utf8_lossy(&tree.stderr)
        );
        // Each line is `name version (path)`, possibly marked `(*)` when seen before.
        let names: BTreeSet<&str> = text.lines().filter_map(|line| line.split(' ').next()).collect();
        assert!(names.contains(package), "{package} is not in its own tree: {text}");
        linked.extend(
            names
                .iter()
                .filter(|name| HOST_ONLY.contains(name))
                .map(|name| (package, name.to_string())),
        );
    }
    assert_eq!(
        linked,
        BTreeSet::new(),
        "crates of the host linked by the engine or the Python package"
    );
}
