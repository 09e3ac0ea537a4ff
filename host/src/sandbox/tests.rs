use super::*;

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
        write: vec![PathBuf::from("/tmp/progress")],
        scratch: PathBuf::from("/tmp/s"),
        limits: Limits::default(),
        cgroups: Vec::new(),
        env: vec![("PATH".to_string(), "/usr/bin".to_string())],
    };
    let text = serde_json::to_string(&spec).unwrap();
    assert!(text.contains("\"best-effort\""), "{text}");
    assert_eq!(serde_json::from_str::<Spec>(&text).unwrap(), spec);
}
