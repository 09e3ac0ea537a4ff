use super::*;

#[test]
fn a_programs_installation_is_found_on_the_path_and_through_links() {
    let dir = tempfile::tempdir().unwrap();
    let install = dir.path().join("interp");
    std::fs::create_dir_all(install.join("bin")).unwrap();
    std::fs::write(install.join("bin/interp3.9"), "#!/bin/sh\n").unwrap();
    assert_eq!(program_prefixes(&install.join("bin/interp3.9")), vec![install.clone()]);
    std::fs::write(dir.path().join("loose"), "#!/bin/sh\n").unwrap();
    assert!(
        program_prefixes(&dir.path().join("loose")).is_empty(),
        "not in a bin folder"
    );
    let shims = dir.path().join("shims/bin");
    std::fs::create_dir_all(&shims).unwrap();
    std::os::unix::fs::symlink(install.join("bin/interp3.9"), shims.join("interp")).unwrap();
    let prefixes = program_prefixes(&shims.join("interp"));
    assert_eq!(
        prefixes,
        vec![dir.path().join("shims"), install.canonicalize().unwrap()]
    );
    assert!(
        !program_prefixes(Path::new("/bin/sh")).contains(&PathBuf::from("/")),
        "never the root"
    );
    assert!(program_prefixes(Path::new("no-such-program-anywhere")).is_empty());
}

#[test]
fn the_sandboxs_stops_are_told_from_other_ends() {
    assert!(stopped(Some(libc::SIGSYS), None).unwrap().contains("forbids"));
    assert!(stopped(Some(libc::SIGXCPU), None).unwrap().contains("CPU time"));
    assert!(stopped(None, Some(125)).unwrap().contains("could not be set up"));
    assert_eq!(stopped(Some(libc::SIGSEGV), None), None);
    assert_eq!(stopped(None, Some(1)), None);
}

#[test]
fn a_spec_reads_back_as_written() {
    let spec = Spec {
        mode: Mode::BestEffort,
        read: vec![PathBuf::from("/usr")],
        scratch: PathBuf::from("/tmp/s"),
        limits: Limits::default(),
        cgroup: None,
    };
    let text = serde_json::to_string(&spec).unwrap();
    assert!(text.contains("\"best-effort\""), "{text}");
    assert_eq!(serde_json::from_str::<Spec>(&text).unwrap(), spec);
}
