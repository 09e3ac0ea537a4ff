use super::*;
use std::fs::File;

fn spawn_sh(dir: &Path, script: &str) -> ChildProcess {
    let mut command = Command::new("sh");
    command.arg("-c").arg(script);
    ChildProcess::spawn(command, &dir.join("sh.log"), "sh", 1 << 20).expect("sh runs")
}

/// Whether a process with this ID still runs two seconds on (a zombie does not count): a
/// killed process takes a moment to go.
fn alive(pid: i32) -> bool {
    let until = Instant::now() + Duration::from_secs(2);
    while running(pid) {
        if Instant::now() > until {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

fn running(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

#[test]
fn the_log_keeps_its_cap_and_counts_the_rest() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("child.log");
    let log = File::create(&path).expect("created");
    let output = vec![b'x'; LOG_CAP_BYTES as usize + 1000];
    logs::copy_capped(&output[..], log);
    let kept = std::fs::read_to_string(&path).expect("readable");
    assert!(kept.starts_with(&"x".repeat(LOG_CAP_BYTES as usize)));
    assert!(kept.ends_with("--- 1000 more bytes of output dropped (the log keeps 4 MiB)\n"));
}

#[test]
fn labels_become_safe_file_names() {
    assert_eq!(file_safe("tree-search@depth=1"), "tree-search_depth_1");
    assert_eq!(file_safe("../../etc/passwd"), ".._.._etc_passwd");
    assert_eq!(file_safe(&"x".repeat(100)).len(), 40);
}

#[test]
fn lines_come_back_and_the_end_is_told() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let log = dir.path().join("cat.log");
    let mut cat = ChildProcess::spawn(Command::new("cat"), &log, "cat", 1 << 20).expect("cat runs");
    cat.send_line("hello").expect("sent");
    assert_eq!(cat.next_line(Duration::from_secs(5)).as_deref(), Ok("hello\n"));
    assert_eq!(cat.next_line(Duration::from_millis(50)), Err(NoLine::Silent));
    assert_eq!(cat.log_with_output(), None);
    cat.kill();
    assert_eq!(cat.next_line(Duration::from_secs(5)), Err(NoLine::Closed));
    assert_eq!(cat.exit_cause(), "killed by signal 9 (SIGKILL)");
    drop(cat);
    assert!(!log.exists(), "a log with nothing in it is removed with its process");
}

#[test]
fn a_line_past_the_cap_ends_the_output_and_nothing_more_is_buffered() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    // Far more than the cap, with no newline: the child blocks on the full pipe.
    let mut flood = spawn_sh(dir.path(), "head -c 100000000 /dev/zero; sleep 30");
    let started = Instant::now();
    assert_eq!(flood.next_line(Duration::from_secs(20)), Err(NoLine::TooLong));
    assert_eq!(flood.next_line(Duration::from_secs(20)), Err(NoLine::TooLong));
    assert!(
        flood.lines.buffered() <= 2 << 20,
        "{} bytes kept",
        flood.lines.buffered()
    );
    let cause = flood.exit_cause();
    assert!(cause.contains("killed"), "{cause}");
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
}

#[test]
fn a_child_that_exits_while_its_own_child_holds_its_output_has_ended() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut parent = spawn_sh(dir.path(), "sleep 60 & echo $!; exit 3");
    let grandchild: i32 = parent
        .next_line(Duration::from_secs(5))
        .expect("the grandchild's ID")
        .trim()
        .parse()
        .expect("a number");
    let started = Instant::now();
    assert_eq!(parent.next_line(Duration::from_secs(20)), Err(NoLine::Closed));
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    assert_eq!(parent.exit_cause(), "exited with code 3");
    assert!(!alive(grandchild), "the grandchild went with its group");
}

#[test]
fn a_child_that_closes_its_output_and_lives_on_is_ended_within_the_grace() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut quiet = spawn_sh(dir.path(), "exec >&-; sleep 60");
    let started = Instant::now();
    assert_eq!(quiet.next_line(Duration::from_secs(20)), Err(NoLine::Closed));
    let cause = quiet.exit_cause();
    assert!(cause.contains("still running") && cause.contains("killed"), "{cause}");
    assert!(
        started.elapsed() < GRACE + Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_child_that_stops_reading_fails_a_write_at_the_limit() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut deaf = spawn_sh(dir.path(), "sleep 60");
    deaf.write_limit = Duration::from_millis(200);
    let line = "x".repeat(4096);
    let started = Instant::now();
    let failed = (0..1000).find_map(|_| deaf.send_line(&line).err());
    assert!(matches!(failed, Some(NotSent::Full)), "{failed:?}");
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
}

#[test]
fn ending_a_child_ends_everything_it_started() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut parent = spawn_sh(dir.path(), "sleep 60 & sleep 60 & echo $!; cat");
    let grandchild: i32 = parent
        .next_line(Duration::from_secs(5))
        .expect("a grandchild's ID")
        .trim()
        .parse()
        .expect("a number");
    assert!(running(grandchild));
    parent.end();
    assert!(!alive(grandchild), "the grandchild went with its group");
}

#[test]
fn a_line_already_sent_is_seen_without_waiting() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut twice = spawn_sh(dir.path(), "read x; echo one; echo two; cat");
    twice.send_line("go").expect("sent");
    assert_eq!(twice.next_line(Duration::from_secs(5)).as_deref(), Ok("one\n"));
    let spare = (0..100).find_map(|_| {
        std::thread::sleep(Duration::from_millis(10));
        twice.waiting_line()
    });
    assert_eq!(spare.as_deref(), Some("two\n"));
    assert_eq!(twice.waiting_line(), None);
}
