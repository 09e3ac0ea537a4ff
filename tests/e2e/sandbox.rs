//! `--sandbox`: hostile bots in Python and in C, each tried with and without the sandbox,
//! so the tests show it is the sandbox that stops them. A bot does its deed at its first
//! piece and says how it went in its log (`--keep-logs`); a forbidden system call ends its
//! game as `sandbox`.

use crate::common::*;
use crate::trust_isolation::{command_within, games_in, strings};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A bot of the bot protocol that drops each piece where it appears; at its first piece it
/// does what its first argument says and prints `DEED: outcome` to its stderr.
const HOSTILE: &str = r#"
import json, os, subprocess, sys, time
deed, target = sys.argv[1], sys.argv[2]
def say(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()
def report(outcome):
    sys.stderr.write(f"{deed}: {outcome}\n")
    sys.stderr.flush()
def act():
    if deed == "read":
        report("read " + open(target).read().strip())
    elif deed == "write":
        open(target, "w").write("was here")
        report("wrote")
    elif deed == "scratch":
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "note")
        open(path, "w").write("mine")
        report("scratch " + open(path).read())
    elif deed == "connect":
        import socket
        socket.create_connection(("127.0.0.1", int(target)), timeout=5).sendall(b"hello")
        report("connected")
    elif deed == "fork":
        started = 0
        try:
            for _ in range(int(target)):
                if os.fork() == 0:
                    time.sleep(600)
                    os._exit(0)
                started += 1
        except OSError as err:
            report(f"started {started}, then {err.strerror}")
            return
        report(f"started {started}")
    elif deed == "memory":
        import mmap
        block = mmap.mmap(-1, 8 << 30)
        report(f"allocated {len(block) >> 30} GiB")
    elif deed == "daemon":
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execvp("sleep", ["sleep", target])
            os._exit(0)
        os.wait()
        report("daemon started")
    elif deed == "ptrace":
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        # PTRACE_SEIZE: the host is not stopped.
        result = libc.ptrace(0x4206, os.getppid(), None, None)
        report(f"ptrace {result} errno {ctypes.get_errno()}")
    elif deed == "tty":
        import fcntl, termios
        try:
            os.open("/dev/tty", os.O_RDWR)
            report("opened /dev/tty")
        except OSError as err:
            report(f"no tty: {err.strerror}")
        try:
            fcntl.ioctl(0, termios.TIOCSTI, b"x")
            report("pushed a key")
        except OSError as err:
            report(f"TIOCSTI errno {err.errno}")
    elif deed == "descriptor":
        try:
            os.write(int(target), b"was here")
            report("wrote to the descriptor")
        except OSError as err:
            report(f"descriptor refused: {err.strerror}")
    elif deed == "environ":
        report("sees " + " ".join(sorted(os.environ)))
    elif deed == "syscall":
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        number, flags = (int(part) for part in target.split(":"))
        if number == 435:
            args = (ctypes.c_uint64 * 11)(flags, 0, 0, 0, 17)
            result = libc.syscall(number, args, 88)
        elif number == 425:
            params = ctypes.create_string_buffer(120)
            result = libc.syscall(number, 1, params)
        else:
            result = libc.syscall(number, ctypes.c_ulong(flags | 17), 0, 0, 0, 0)
        if result == 0:
            os._exit(0)
        report(f"syscall {number} gave {result} errno {ctypes.get_errno()}")
    elif deed == "memfd":
        held, files = 0, []
        try:
            while held < int(target) << 20:
                fd = os.memfd_create("hoard")
                files.append(fd)
                for _ in range(32):
                    os.write(fd, b"x" * (1 << 20))
                    held += 1 << 20
            report(f"held {held >> 20} MiB in memfds")
        except OSError as err:
            report(f"memfd refused at {held >> 20} MiB: {err.strerror}")
    elif deed == "disk":
        written = 0
        try:
            for n in range(64):
                with open(os.path.join(os.environ["TMPDIR"], f"fill{n}"), "wb") as f:
                    for _ in range(8):
                        f.write(b"x" * (1 << 20))
                        f.flush()
                        written += 1 << 20
            report(f"wrote {written >> 20} MiB")
        except OSError as err:
            report(f"disk refused at {written >> 20} MiB: {err.strerror}")
    elif deed == "nest":
        top = os.environ["TMPDIR"]
        fd = os.open(top, os.O_RDONLY)
        for _ in range(int(target)):
            os.mkdir("d", dir_fd=fd)
            below = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = below
        os.makedirs(os.path.join(top, "locked", "inner"))
        os.chmod(os.path.join(top, "locked"), 0)
        report("nested " + target)
    elif deed == "outlive":
        import ctypes
        if os.fork() == 0:
            os.setsid()
            ctypes.CDLL(None).prctl(1, 0)
            if os.fork() == 0:
                ctypes.CDLL(None).prctl(1, 0)
                os.execvp("sleep", ["sleep", target])
            os._exit(0)
        os.wait()
        report("daemon started")
        time.sleep(60)
    elif deed == "shell":
        done = subprocess.run(["sh", "-c", f"cat {target} && echo was here > {target}.shell"], capture_output=True, text=True)
        report("shell read " + done.stdout.strip() + done.stderr.strip())
pieces = 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        say({"type": "info", "protocol": 1, "name": "hostile", "answers": "placement"})
    elif kind == "start":
        say({"type": "ready"})
    elif kind == "piece":
        pieces += 1
        if pieces == 1:
            try:
                act()
            except Exception as err:
                report(f"refused: {type(err).__name__}: {err}")
        current = message["current"]
        say({"type": "placement", "orientation": current["orientation"], "column": current["x"]})
    elif kind == "quit":
        break
"#;

/// The same deeds in C, with a bot loop that reads just what it needs of each message.
const HOSTILE_C: &str = r#"
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <unistd.h>

static int field(const char *line, const char *key) {
    const char *at = strstr(line, "\"current\"");
    at = at ? strstr(at, key) : NULL;
    return at ? atoi(at + strlen(key)) : 0;
}

static void act(const char *deed, const char *target) {
    if (!strcmp(deed, "read")) {
        char secret[256] = "";
        FILE *f = fopen(target, "r");
        if (!f) { fprintf(stderr, "%s: refused: %s\n", deed, strerror(errno)); return; }
        fgets(secret, sizeof secret, f);
        fprintf(stderr, "%s: read %s\n", deed, secret);
    } else if (!strcmp(deed, "connect")) {
        int s = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(atoi(target)) };
        to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (s < 0 || connect(s, (struct sockaddr *)&to, sizeof to) < 0) {
            fprintf(stderr, "%s: refused: %s\n", deed, strerror(errno));
            return;
        }
        write(s, "hello", 5);
        fprintf(stderr, "%s: connected\n", deed);
    } else if (!strcmp(deed, "ptrace")) {
        /* Seized, not attached: the host is not stopped. */
        long r = ptrace(PTRACE_SEIZE, getppid(), NULL, NULL);
        fprintf(stderr, "%s: ptrace %ld errno %d\n", deed, r, r < 0 ? errno : 0);
    }
    fflush(stderr);
}

int main(int argc, char **argv) {
    char line[1 << 16];
    int pieces = 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (argc > 2 && fgets(line, sizeof line, stdin)) {
        if (strstr(line, "\"type\":\"hello\"")) {
            printf("{\"type\":\"info\",\"protocol\":1,\"name\":\"hostile-c\",\"answers\":\"placement\"}\n");
        } else if (strstr(line, "\"type\":\"start\"")) {
            printf("{\"type\":\"ready\"}\n");
        } else if (strstr(line, "\"type\":\"piece\"")) {
            if (++pieces == 1) act(argv[1], argv[2]);
            printf("{\"type\":\"placement\",\"orientation\":%d,\"column\":%d}\n",
                   field(line, "\"orientation\":"), field(line, "\"x\":"));
        } else if (strstr(line, "\"type\":\"quit\"")) {
            break;
        }
    }
    return 0;
}
"#;

/// One sandboxed (or not) game of a hostile bot doing `deed` to `target`.
struct Trial {
    /// How the game ended.
    end: String,
    /// The game's error, if it forfeited.
    error: String,
    /// What the bot said of its deed (its log), and what tetrad printed on stderr.
    said: String,
}

/// A hostile bot's folder (the Python bot, and the C bot built there), inside `dir`.
fn bots(dir: &Path) -> PathBuf {
    let folder = dir.join("bots");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("hostile.py"), HOSTILE).unwrap();
    let source = folder.join("hostile.c");
    std::fs::write(&source, HOSTILE_C).unwrap();
    let built = std::process::Command::new("cc")
        .arg("-O1")
        .arg("-o")
        .arg(folder.join("hostile-c"))
        .arg(&source)
        .status()
        .expect("cc runs");
    assert!(built.success(), "the C bot builds");
    folder
}

/// Plays one game of the bot `program` (with `deed` and `target`), sandboxed if `sandbox`.
fn trial(folder: &Path, c: bool, deed: &str, target: &str, sandbox: bool) -> Trial {
    trial_with(folder, c, deed, target, sandbox, &[], &[])
}

/// [`trial`], with more options for tetrad and more variables in its environment.
fn trial_with(
    folder: &Path,
    c: bool,
    deed: &str,
    target: &str,
    sandbox: bool,
    options: &[&str],
    env: &[(&str, &str)],
) -> Trial {
    let manifest = folder.join(format!("{deed}-{c}.toml"));
    let command = if c {
        format!("[\"./hostile-c\", \"{deed}\", \"{target}\"]")
    } else {
        format!("[\"python3\", \"hostile.py\", \"{deed}\", \"{target}\"]")
    };
    std::fs::write(&manifest, format!("name = \"hostile\"\ncommand = {command}\n")).unwrap();
    let logs = folder.parent().unwrap().join(format!("tmp-{deed}-{c}-{sandbox}"));
    std::fs::create_dir_all(&logs).unwrap();
    let mut args = strings(&[
        "run",
        "--games",
        "1",
        "--max-pieces",
        "5",
        "--format",
        "json",
        "--keep-logs",
    ]);
    args.extend(["--plugin".to_string(), manifest.display().to_string()]);
    if sandbox {
        // As root, without a pids cgroup, the process limit is missing: best effort says so.
        args.push("--sandbox=best-effort".to_string());
    }
    args.extend(strings(options));
    let mut command = tetrad();
    command.args(&args).env("TMPDIR", &logs).envs(env.iter().copied());
    let output = command_within(command, Duration::from_secs(90));
    let document: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|err| panic!("{err}: {}\n{}", stdout(&output), stderr(&output)));
    let game = &document["games"][0];
    let mut said = stderr(&output);
    for entry in walk(&logs) {
        said.push_str(&std::fs::read_to_string(entry).unwrap_or_default());
    }
    Trial {
        end: game["end"].as_str().unwrap_or_default().to_string(),
        error: game["error"].as_str().unwrap_or_default().to_string(),
        said,
    }
}

/// Every file below `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

/// IDs of the running processes whose command line holds `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    walk_proc()
        .into_iter()
        .filter(|(_, cmdline)| cmdline.contains(marker))
        .map(|(pid, _)| pid)
        .collect()
}

fn walk_proc() -> Vec<(String, String)> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_string_lossy().into_owned();
            pid.parse::<u32>().ok()?;
            let cmdline = std::fs::read(entry.path().join("cmdline")).ok()?;
            process_running(&pid).then(|| (pid, String::from_utf8_lossy(&cmdline).replace('\0', " ")))
        })
        .collect()
}

#[test]
fn files_outside_its_folder_are_out_of_reach_and_its_scratch_is_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let folder = bots(dir.path());
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "the crown jewels").unwrap();
    let outside = dir.path().join("written.txt");
    for c in [false, true] {
        let free = trial(&folder, c, "read", secret.to_str().unwrap(), false);
        assert!(free.said.contains("read the crown jewels"), "c {c}: {}", free.said);
        let boxed = trial(&folder, c, "read", secret.to_str().unwrap(), true);
        assert!(!boxed.said.contains("crown jewels"), "c {c}: {}", boxed.said);
        assert!(boxed.said.contains("read: refused"), "c {c}: {}", boxed.said);
        assert_eq!(boxed.end, "capped", "c {c}: {}", boxed.error);
    }
    let boxed = trial(&folder, false, "write", outside.to_str().unwrap(), true);
    assert!(boxed.said.contains("write: refused: PermissionError"), "{}", boxed.said);
    assert!(!outside.exists());
    let free = trial(&folder, false, "write", outside.to_str().unwrap(), false);
    assert!(free.said.contains("write: wrote"), "{}", free.said);
    assert!(outside.exists());
    let boxed = trial(&folder, false, "scratch", "-", true);
    assert!(boxed.said.contains("scratch: scratch mine"), "{}", boxed.said);
    // A shell the bot starts is held to the same.
    let boxed = trial(&folder, false, "shell", secret.to_str().unwrap(), true);
    assert!(!boxed.said.contains("crown jewels"), "{}", boxed.said);
    assert!(!dir.path().join("secret.txt.shell").exists());
    let free = trial(&folder, false, "shell", secret.to_str().unwrap(), false);
    assert!(free.said.contains("shell read the crown jewels"), "{}", free.said);
}

#[test]
fn no_network_and_no_tracing_a_breach_is_a_sandbox_forfeit() {
    let dir = tempfile::tempdir().unwrap();
    let folder = bots(dir.path());
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let greeted = |listener: &std::net::TcpListener| {
        let mut heard = String::new();
        while let Ok((mut stream, _)) = listener.accept() {
            stream.set_nonblocking(false).unwrap();
            stream.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
            let _ = stream.read_to_string(&mut heard);
        }
        heard
    };
    for c in [false, true] {
        let free = trial(&folder, c, "connect", &port, false);
        assert!(free.said.contains("connect: connected"), "c {c}: {}", free.said);
        assert!(greeted(&listener).contains("hello"), "c {c}");
        let boxed = trial(&folder, c, "connect", &port, true);
        assert_eq!(boxed.end, "sandbox", "c {c}: {}", boxed.error);
        assert!(
            boxed.error.contains("a system call the sandbox forbids"),
            "c {c}: {}",
            boxed.error
        );
        assert!(
            greeted(&listener).is_empty(),
            "c {c}: the listener heard from a sandboxed bot"
        );

        let free = trial(&folder, c, "ptrace", "-", false);
        assert!(free.said.contains("ptrace 0 errno 0"), "c {c}: {}", free.said);
        let boxed = trial(&folder, c, "ptrace", "-", true);
        assert_eq!(boxed.end, "sandbox", "c {c}: {}", boxed.error);
        assert!(!boxed.said.contains("ptrace 0 errno 0"), "c {c}: {}", boxed.said);
    }
}

#[test]
fn a_fork_bomb_memory_hog_and_daemon_are_held_and_nothing_is_left() {
    let dir = tempfile::tempdir().unwrap();
    let folder = bots(dir.path());
    // Bounded, so the run without the sandbox harms nothing.
    let free = trial(&folder, false, "fork", "150", false);
    assert!(free.said.contains("fork: started 150"), "{}", free.said);
    let boxed = trial(&folder, false, "fork", "150", true);
    let started: usize = boxed
        .said
        .split("fork: started ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{}", boxed.said));
    assert!(
        started < 64,
        "{started} processes started in the sandbox: {}",
        boxed.said
    );

    let boxed = trial(&folder, false, "memory", "-", true);
    assert!(boxed.said.contains("memory: refused: OSError"), "{}", boxed.said);
    let free = trial(&folder, false, "memory", "-", false);
    assert!(free.said.contains("memory: allocated 8 GiB"), "{}", free.said);

    // A grandchild in a session of its own leaves the bot's process group: only the
    // sandbox's PID namespace ends it with the game.
    let marker = "7321.25";
    let boxed = trial(&folder, false, "daemon", marker, true);
    assert!(boxed.said.contains("daemon: daemon started"), "{}", boxed.said);
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        processes_with(marker).is_empty(),
        "a sandboxed daemon outlived its game"
    );
    // Without the sandbox, tetrad is the subreaper of its bots' trees.
    let free = trial(&folder, false, "daemon", marker, false);
    assert!(free.said.contains("daemon: daemon started"), "{}", free.said);
    std::thread::sleep(Duration::from_millis(300));
    let left = processes_with(marker);
    for pid in &left {
        let _ = std::process::Command::new("kill").arg("-9").arg(pid).status();
    }
    assert!(left.is_empty(), "without the sandbox, a daemon outlived its game");
}

#[test]
fn an_isolated_library_plays_in_the_sandbox() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "the crown jewels").unwrap();
    let source = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <unistd.h>
#include "tetrad_plugin.h"
static const TetradPluginInfo INFO = { TETRAD_ABI_VERSION, "nosy", "1", "tests", "reads what it should not" };
typedef struct { char said[300]; int calls; int trace; } State;
uint32_t tetrad_abi_version(void) { return TETRAD_ABI_VERSION; }
const TetradPluginInfo *tetrad_plugin_info(void) { return &INFO; }
void *tetrad_create(const TetradGameInfo *g, const char *o, char *e, size_t n) {
    (void)g; (void)e; (void)n;
    State *s = calloc(1, sizeof(State));
    s->trace = strstr(o, "trace") != NULL;
    FILE *f = fopen(SECRET, "r");
    if (f) { strcpy(s->said, "read: "); fgets(s->said + 6, 200, f); fclose(f); }
    return s;
}
uint32_t tetrad_update(void *v, const TetradField *f, const TetradPiece *c, const TetradPiece *x, bool fresh) {
    (void)f; (void)c; (void)x; (void)fresh;
    State *s = v;
    if (s->trace && ++s->calls == 2) ptrace(PTRACE_SEIZE, getppid(), NULL, NULL);
    return s->said[0] ? TETRAD_UPDATE_FAILED : TETRAD_DROP;
}
void tetrad_destroy(void *s) { free(s); }
const char *tetrad_last_error(void *s) { return ((State *)s)->said; }
"#
    .replace("SECRET", &format!("{:?}", secret.display().to_string()));
    // In a folder of its own: the secret is outside it.
    let folder = dir.path().join("lib");
    std::fs::create_dir(&folder).unwrap();
    let lib = compile_c(&folder, "nosy", &source).display().to_string();
    let play = |sandbox: bool, options: &str| {
        let out = dir.path().join(format!("{sandbox}{options}.jsonl"));
        let mut args = strings(&["tournament", "--isolate", "--games", "1", "--max-pieces", "20"]);
        args.extend(["--out".to_string(), out.display().to_string(), "--plugins".to_string()]);
        args.extend([format!("{lib}@{options}"), "random".to_string()]);
        if sandbox {
            args.push("--sandbox=best-effort".to_string());
        }
        let mut command = tetrad();
        command.args(&args);
        let output = command_within(command, Duration::from_secs(90));
        assert!(output.status.success(), "{}", stderr(&output));
        let game = games_in(&out)
            .into_iter()
            .find(|game| game["entrant"] == 0)
            .expect("its game");
        let result = &game["result"];
        (
            result["end"].as_str().unwrap_or_default().to_string(),
            result["error"].as_str().unwrap_or_default().to_string(),
        )
    };
    let (end, error) = play(false, "look");
    assert_eq!(
        (end.as_str(), error.as_str()),
        ("plugin_error", "read: the crown jewels")
    );
    let (end, error) = play(true, "look");
    assert_eq!(end, "topped_out", "{error}");
    let (end, error) = play(true, "trace");
    assert_eq!(end, "sandbox", "{error}");
}

#[test]
fn a_library_outside_a_worker_is_refused_under_the_sandbox() {
    let output = command_within(
        {
            let mut command = tetrad();
            command.args(["run", "--plugin", "random", "--games", "1", "--sandbox=best-effort"]);
            command
        },
        Duration::from_secs(30),
    );
    assert_one_line_error(&output, "a library plugin runs inside tetrad's own process");
}

#[test]
fn a_limit_out_of_range_is_one_line() {
    assert_one_line_error(&run(&["run", "--plugin", "random", "--max-cpu", "0"]), "--max-cpu");
    assert_one_line_error(&run(&["run", "--plugin", "random", "--max-memory", "1K"]), "16M and up");
}

// Issue 44, "The wall holds": each hole a hostile bot found, closed.

#[test]
fn the_launcher_runs_nothing_from_the_manifest_and_the_bot_sees_only_the_allow_list() {
    let dir = tempfile::tempdir().unwrap();
    let folder = bots(dir.path());
    // A manifest asking for the loader's variables is refused in one line.
    let manifest = folder.join("preload.toml");
    std::fs::write(
        &manifest,
        "name = \"preload\"\ncommand = [\"python3\", \"hostile.py\", \"environ\", \"-\"]\nenv = { LD_PRELOAD = \"./evil.so\" }\n",
    )
    .unwrap();
    let output = run(&[
        "run",
        "--plugin",
        manifest.to_str().unwrap(),
        "--games",
        "1",
        "--sandbox=best-effort",
    ]);
    assert_one_line_error(&output, "may not set LD_PRELOAD");
    // tetrad's own environment stays out; the bot gets the allow-list and its scratch.
    let boxed = trial_with(
        &folder,
        false,
        "environ",
        "-",
        true,
        &[],
        &[("SECRET_TOKEN", "hunter2"), ("SSH_AUTH_SOCK", "/run/agent")],
    );
    let seen = boxed
        .said
        .split("environ: sees ")
        .nth(1)
        .unwrap_or_else(|| panic!("{}", boxed.said));
    assert!(
        !seen.contains("SECRET_TOKEN") && !seen.contains("SSH_AUTH_SOCK"),
        "{seen}"
    );
    assert!(seen.contains("HOME") && seen.contains("TMPDIR"), "{seen}");
}

#[test]
fn a_link_to_the_root_in_a_bots_folder_grants_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let folder = bots(dir.path());
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "the crown jewels").unwrap();
    std::os::unix::fs::symlink("/", folder.join("rt")).unwrap();
    let manifest = folder.join("link.toml");
    std::fs::write(
        &manifest,
        format!(
            "name = \"link\"\ncommand = [\"./rt/bin/python3\", \"hostile.py\", \"read\", \"{}\"]\n",
            secret.display()
        ),
    )
    .unwrap();
    let logs = dir.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    let mut command = tetrad();
    command
        .args([
            "run",
            "--games",
            "1",
            "--max-pieces",
            "3",
            "--keep-logs",
            "--sandbox=best-effort",
        ])
        .arg("--plugin")
        .arg(&manifest)
        .env("TMPDIR", &logs);
    let output = command_within(command, Duration::from_secs(60));
    let said: String = walk(&logs)
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap_or_default())
        .collect();
    assert!(!said.contains("crown jewels"), "{said}{}", stderr(&output));
    assert!(said.contains("read: refused"), "{said}{}", stderr(&output));
}

#[test]
fn no_terminal_no_inherited_descriptor_and_no_new_namespaces() {
    let dir = tempfile::tempdir().unwrap();
    let folder = bots(dir.path());
    let boxed = trial(&folder, false, "tty", "-", true);
    assert!(boxed.said.contains("tty: no tty"), "{}", boxed.said);
    assert!(
        boxed.said.contains("TIOCSTI errno 1"),
        "refused by the filter: {}",
        boxed.said
    );
    // A descriptor the user's shell left open: with and without the sandbox.
    let file = dir.path().join("nine");
    for sandbox in [false, true] {
        std::fs::write(&file, "").unwrap();
        let mut command = std::process::Command::new("sh");
        let manifest = folder.join(format!("fd-{sandbox}.toml"));
        std::fs::write(
            &manifest,
            "name = \"fd\"\ncommand = [\"python3\", \"hostile.py\", \"descriptor\", \"9\"]\n",
        )
        .unwrap();
        command
            .arg("-c")
            .arg("exec 9>\"$0\"; shift; exec \"$@\"")
            .arg(&file)
            .arg("placeholder")
            .arg(env!("CARGO_BIN_EXE_tetrad"))
            .args(["run", "--games", "1", "--max-pieces", "3", "--plugin"])
            .arg(&manifest);
        if sandbox {
            command.arg("--sandbox=best-effort");
        }
        let output = command_within(command, Duration::from_secs(60));
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "", "sandbox {sandbox}");
    }
    // io_uring and clone3 answer "not implemented"; a clone into new namespaces is killed.
    let uring = trial(&folder, false, "syscall", "425:0", true);
    assert!(uring.said.contains("syscall 425 gave -1 errno 38"), "{}", uring.said);
    let clone3 = trial(
        &folder,
        false,
        "syscall",
        &format!("435:{}", libc_clone_newuser()),
        true,
    );
    assert!(clone3.said.contains("syscall 435 gave -1 errno 38"), "{}", clone3.said);
    let clone = trial(
        &folder,
        false,
        "syscall",
        &format!("56:{}", libc_clone_newuser() | 0x4000_0000),
        true,
    );
    assert_eq!(clone.end, "sandbox", "{}", clone.said);
}

/// Whether this system gives an ordinary process user, network, mount and PID namespaces
/// (the sandbox's disk limit and the namespace's first process need them); a test that
/// needs them says so loudly and skips where they are missing.
fn namespaces_here(test: &str) -> bool {
    let given = std::process::Command::new("unshare")
        .args(["--user", "--net", "--mount", "--pid", "--fork", "true"])
        .status()
        .map_or(true, |status| status.success());
    if !given {
        eprintln!("skipped: {test} needs user, network, mount and PID namespaces, which this system refuses");
    }
    given
}

/// `CLONE_NEWUSER`.
fn libc_clone_newuser() -> u64 {
    0x1000_0000
}

#[test]
fn memory_in_files_and_the_scratch_folder_are_held_to_their_limits() {
    let dir = tempfile::tempdir().unwrap();
    let folder = bots(dir.path());
    if !namespaces_here("the disk limit") {
        return;
    }
    let disk = trial_with(&folder, false, "disk", "-", true, &["--max-disk", "16M"], &[]);
    assert!(disk.said.contains("disk: disk refused at 16 MiB"), "{}", disk.said);
    let free = trial(&folder, false, "disk", "-", false);
    assert!(free.said.contains("disk: wrote 512 MiB"), "{}", free.said);
    // A memory cgroup counts memfds where one can be had (as root here); elsewhere the
    // docs say the limit counts only mapped memory.
    if rustix_is_root() {
        let boxed = trial_with(&folder, false, "memfd", "512", true, &["--max-memory", "128M"], &[]);
        assert!(!boxed.said.contains("held 512 MiB"), "{}", boxed.said);
    } else {
        eprintln!("skipped: the memfd check needs a memory cgroup, which a run as root has");
    }
}

fn rustix_is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .any(|line| line.starts_with("Uid:") && line.split_whitespace().nth(1) == Some("0"))
}

#[test]
fn a_tree_no_cleanup_could_remove_is_removed() {
    let dir = tempfile::tempdir().unwrap();
    let folder = bots(dir.path());
    let logs = dir.path().join("tmp-nest-false-true");
    let boxed = trial(&folder, false, "nest", "3000", true);
    assert!(boxed.said.contains("nest: nested 3000"), "{}", boxed.said);
    let scratch: Vec<PathBuf> = std::fs::read_dir(&logs)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.to_string_lossy().contains("tetrad-scratch"))
        .collect();
    assert!(scratch.is_empty(), "scratch left: {scratch:?}");
}

#[test]
fn a_bot_that_leaves_its_session_does_not_outlive_tetrad() {
    if !namespaces_here("a bot outliving tetrad") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let folder = bots(dir.path());
    for sandbox in [true, false] {
        let marker = if sandbox { "7321.41" } else { "7321.42" };
        let manifest = folder.join(format!("outlive-{sandbox}.toml"));
        std::fs::write(
            &manifest,
            format!("name = \"outlive\"\ncommand = [\"python3\", \"hostile.py\", \"outlive\", \"{marker}\"]\n"),
        )
        .unwrap();
        let logs = dir.path().join(format!("logs-{sandbox}"));
        std::fs::create_dir(&logs).unwrap();
        let mut command = tetrad();
        command
            .args(["run", "--games", "1", "--keep-logs", "--plugin"])
            .arg(&manifest)
            .env("TMPDIR", &logs)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        if sandbox {
            command.arg("--sandbox=best-effort");
        }
        let mut running = command.spawn().unwrap();
        let started = std::time::Instant::now();
        while !walk(&logs).iter().any(|f| {
            std::fs::read_to_string(f)
                .unwrap_or_default()
                .contains("daemon started")
        }) {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the bot never started its daemon"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(!processes_with(marker).is_empty(), "the daemon runs while tetrad does");
        // tetrad killed outright: it cleans nothing up itself.
        running.kill().unwrap();
        running.wait().unwrap();
        std::thread::sleep(Duration::from_millis(500));
        let left = processes_with(marker);
        for pid in &left {
            let _ = std::process::Command::new("kill").arg("-9").arg(pid).status();
        }
        if sandbox {
            assert!(left.is_empty(), "a sandboxed daemon outlived tetrad");
            // What the killed run left (its scratch folder, its cgroups) goes with the next.
            let killed = format!("tetrad-scratch-{}", running.id());
            assert!(logs.join(&killed).exists(), "the killed run's scratch folder");
            let next = trial_with(
                &folder,
                false,
                "scratch",
                "-",
                true,
                &[],
                &[("TMPDIR", logs.to_str().unwrap())],
            );
            assert_eq!(next.end, "capped", "{}", next.error);
            assert!(!logs.join(&killed).exists(), "the killed run's scratch folder was left");
        } else if !left.is_empty() {
            // Without the sandbox a killed tetrad takes nothing with it: the bot's own
            // parent-death signal ended the bot, and the daemon it cleared is out of reach.
            eprintln!("without the sandbox, a daemon that cleared its parent-death signal outlived a killed tetrad");
        }
    }
}

#[test]
fn a_bot_the_sandbox_kills_before_its_first_answer_forfeits_and_the_others_play_on() {
    let dir = tempfile::tempdir().unwrap();
    let folder = bots(dir.path());
    let manifest = folder.join("early.toml");
    // Its first act, before it says hello: a socket, which the sandbox answers by killing it.
    std::fs::write(folder.join("early.py"), "import socket\nsocket.socket()\n").unwrap();
    std::fs::write(&manifest, "name = \"early\"\ncommand = [\"python3\", \"early.py\"]\n").unwrap();
    let out = dir.path().join("t.jsonl");
    // The second entrant: a well-behaved bot (the C bot's placement loop, doing nothing).
    let calm = folder.join("calm.toml");
    std::fs::write(&calm, "name = \"calm\"\ncommand = [\"./hostile-c\", \"none\", \"-\"]\n").unwrap();
    let mut command = tetrad();
    command
        .args([
            "tournament",
            "--games",
            "2",
            "--max-pieces",
            "20",
            "--sandbox=best-effort",
            "--out",
        ])
        .arg(&out)
        .arg("--plugins")
        .arg(&manifest)
        .arg(&calm);
    let output = command_within(command, Duration::from_secs(90));
    assert!(output.status.success(), "{}", stderr(&output));
    let games = games_in(&out);
    let ends: Vec<(u64, String)> = games
        .iter()
        .flat_map(|game| {
            let seats = game["seats"].as_array().cloned().unwrap_or_else(|| vec![game.clone()]);
            seats
                .into_iter()
                .map(|seat| {
                    let entrant = seat["entrant"].as_u64().or(game["entrant"].as_u64()).unwrap_or(99);
                    let end = seat["result"]["end"].as_str().unwrap_or_default().to_string();
                    (entrant, end)
                })
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(ends.len(), 4, "{ends:?}");
    for (entrant, end) in ends {
        match entrant {
            0 => assert_eq!(end, "sandbox"),
            _ => assert!(["capped", "topped_out"].contains(&end.as_str()), "{end}"),
        }
    }
}

#[test]
fn the_self_check_finds_no_way_out() {
    if !namespaces_here("the self-check") {
        return;
    }
    let output = run(&["sandbox", "--check", "--sandbox=best-effort"]);
    let text = stdout(&output);
    assert!(
        output.status.success(),
        "{:?}: {text}{}",
        output.status,
        stderr(&output)
    );
    assert!(text.contains(" 0 open"), "{text}");
    for check in [
        "io_uring",
        "push keys (TIOCSTI)",
        "a bot outlives tetrad",
        "read through a link",
    ] {
        assert!(
            text.lines()
                .any(|line| line.contains(check) && line.starts_with("held")),
            "{check}: {text}"
        );
    }
}

#[test]
fn a_librarys_constructor_never_runs_in_tetrads_own_process_under_the_sandbox() {
    let dir = tempfile::tempdir().unwrap();
    let mark = dir.path().join("constructor-ran");
    let source = r#"
#include <stdio.h>
#include <stdlib.h>
#include "tetrad_plugin.h"
static const TetradPluginInfo INFO = { TETRAD_ABI_VERSION, "eager", "1", "tests", "acts as it is opened" };
__attribute__((constructor)) static void opened(void) {
    FILE *f = fopen(MARK, "a");
    if (f) { fputs("ran\n", f); fclose(f); }
}
uint32_t tetrad_abi_version(void) { return TETRAD_ABI_VERSION; }
const TetradPluginInfo *tetrad_plugin_info(void) { return &INFO; }
void *tetrad_create(const TetradGameInfo *g, const char *o, char *e, size_t n) {
    (void)g; (void)o; (void)e; (void)n; return malloc(1);
}
uint32_t tetrad_update(void *s, const TetradField *f, const TetradPiece *c, const TetradPiece *x, bool fresh) {
    (void)s; (void)f; (void)c; (void)x; (void)fresh; return TETRAD_DROP;
}
void tetrad_destroy(void *s) { free(s); }
const char *tetrad_last_error(void *s) { (void)s; return ""; }
"#
    .replace("MARK", &format!("{:?}", mark.display().to_string()));
    let folder = dir.path().join("lib");
    std::fs::create_dir(&folder).unwrap();
    let lib = compile_c(&folder, "eager", &source).display().to_string();
    let tournament = |name: &str, sandbox: &[&str]| {
        let out = dir.path().join(name);
        let mut args = vec!["tournament", "--isolate", "--games", "1", "--max-pieces", "5"];
        args.extend(sandbox);
        args.extend(["--out", out.to_str().unwrap(), "--plugins", &lib, "random"]);
        let output = run(&args);
        assert!(output.status.success(), "{}", stderr(&output));
        output
    };
    // Without the sandbox the constructor runs, in tetrad's process and in the worker's.
    tournament("free.jsonl", &[]);
    assert!(mark.exists(), "the constructor ran without the sandbox");
    std::fs::remove_file(&mark).unwrap();
    // Under it, tetrad reads the library's info in the sandbox, where the file is out of
    // reach, and the games are played in sandboxed workers.
    let output = tournament("boxed.jsonl", &["--sandbox=best-effort"]);
    assert!(
        stdout(&output).contains("eager"),
        "its info, read in the sandbox: {}",
        stdout(&output)
    );
    assert!(!mark.exists(), "the constructor ran outside the sandbox");
    // `run` refuses a library under the sandbox, and has not opened it either.
    let output = run(&["run", "--plugin", &lib, "--games", "1", "--sandbox=best-effort"]);
    assert_one_line_error(&output, "a library plugin runs inside tetrad's own process");
    assert!(!mark.exists(), "the constructor ran outside the sandbox");
}
