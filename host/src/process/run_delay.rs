//! The machine's share of a wait: how long threads were ready to run and waited for a CPU
//! (the scheduler's run-queue delay in `/proc/…/schedstat`), so that a clock can leave a
//! busy machine's delays uncharged. Where the system does not say, every delay reads as
//! zero and everything is charged, as before.

use std::cell::Cell;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The most processes of a bot's tree that are looked at (the bot, and what it started).
const MAX_PROCESSES: usize = 64;

/// The most threads of a bot's tree that are looked at.
const MAX_THREADS: usize = 512;

thread_local! {
    /// This thread's schedstat, open for the thread's life: one `pread` a reading.
    static OWN: Option<File> = File::open("/proc/thread-self/schedstat").ok();
}

/// The first two fields of a schedstat line: time on a CPU and time waiting for one, in
/// nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct SchedStat {
    on_cpu_ns: u64,
    waited_ns: u64,
}

fn parse(text: &[u8]) -> Option<SchedStat> {
    let text = std::str::from_utf8(text).ok()?;
    let mut fields = text.split_ascii_whitespace().map(|field| field.parse::<u64>().ok());
    Some(SchedStat {
        on_cpu_ns: fields.next()??,
        waited_ns: fields.next()??,
    })
}

fn read_at(file: &File) -> Option<SchedStat> {
    let mut text = [0u8; 96];
    let len = file.read_at(&mut text, 0).ok()?;
    parse(&text[..len])
}

fn read_path(path: &std::path::Path) -> Option<SchedStat> {
    read_at(&File::open(path).ok()?)
}

/// How long this thread has waited for a CPU since it started.
pub fn this_thread() -> Duration {
    let waited = OWN
        .with(|own| own.as_ref().and_then(read_at))
        .map_or(0, |stat| stat.waited_ns);
    Duration::from_nanos(waited)
}

/// The threads of a bot's process tree when it was asked, to tell afterwards how much of
/// its answer's time the machine took ([`BotThreads::machine_part`]).
#[derive(Debug, Default)]
pub struct BotThreads {
    pid: u32,
    threads: Vec<Thread>,
}

/// One thread of a bot: its `/proc` folder, its times when taken, and when its times were
/// last seen to change.
#[derive(Debug)]
struct Thread {
    dir: PathBuf,
    taken: SchedStat,
    last: Cell<(SchedStat, Instant)>,
}

impl BotThreads {
    /// The threads of process `pid` and of every process it started (the bot under the
    /// sandbox's launcher), as they are now.
    pub fn of(pid: u32) -> BotThreads {
        let now = Instant::now();
        let mut threads = Vec::new();
        each_thread(pid, |dir| {
            if let Some(taken) = read_path(&dir.join("schedstat")) {
                let last = Cell::new((taken, now));
                threads.push(Thread { dir, taken, last });
            }
        });
        BotThreads { pid, threads }
    }

    /// The machine's part in the `took` since the threads were taken: the longest that one
    /// of them waited for a CPU (the thread that answers, or one it waited on, such as a
    /// search thread holding a lock), but never more than the time the bot could not have
    /// had the `cpus` to itself: `took` less the CPU time its threads used, spread over
    /// the CPUs. So a bot whose own threads outnumber the CPUs, on a machine it has to
    /// itself, is not excused for keeping itself waiting.
    ///
    /// The system adds a wait to a thread's count only once the thread runs; a thread
    /// that is ready to run and has not run since its times last changed is taken to have
    /// waited since then (its times are read again at each call).
    pub fn machine_part(&self, took: Duration, cpus: usize) -> Duration {
        let now = Instant::now();
        let since = self.threads.iter().filter_map(|thread| {
            let stat = read_path(&thread.dir.join("schedstat"))?;
            let (last, changed) = thread.last.get();
            let waiting_since = match stat == last {
                true => ready_to_run(&thread.dir).then_some(changed),
                false => {
                    thread.last.set((stat, now));
                    None
                }
            };
            let waiting = waiting_since.map_or(0, |since| now.saturating_duration_since(since).as_nanos() as u64);
            Some(SchedStat {
                on_cpu_ns: stat.on_cpu_ns.saturating_sub(thread.taken.on_cpu_ns),
                waited_ns: stat.waited_ns.saturating_sub(thread.taken.waited_ns) + waiting,
            })
        });
        // Threads started since it was asked are its own work too (spinning ones could
        // otherwise keep its answering thread waiting on its behalf): all their time on a
        // CPU counts, none of their waits.
        let mut started = Vec::new();
        each_thread(self.pid, |dir| {
            if !self.threads.iter().any(|thread| thread.dir == dir) {
                if let Some(stat) = read_path(&dir.join("schedstat")) {
                    started.push(SchedStat { waited_ns: 0, ..stat });
                }
            }
        });
        machine_part(since.chain(started), took, cpus)
    }
}

/// Calls `each` with the `/proc` folder of every thread of process `pid` and of the
/// processes it started, down its tree (at most [`MAX_PROCESSES`] processes and
/// [`MAX_THREADS`] threads).
fn each_thread(pid: u32, mut each: impl FnMut(PathBuf)) {
    let mut processes = vec![pid];
    let (mut seen, mut threads) = (0, 0);
    while let Some(pid) = processes.pop() {
        seen += 1;
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        for task in tasks.flatten() {
            let dir = task.path();
            if seen + processes.len() < MAX_PROCESSES {
                let children = std::fs::read_to_string(dir.join("children")).unwrap_or_default();
                processes.extend(
                    children
                        .split_ascii_whitespace()
                        .filter_map(|child| child.parse::<u32>().ok()),
                );
            }
            if threads < MAX_THREADS {
                threads += 1;
                each(dir);
            }
        }
        if seen >= MAX_PROCESSES {
            break;
        }
    }
}

/// Whether the thread whose `/proc` folder is `dir` is ready to run (state `R`: running
/// or waiting for a CPU).
fn ready_to_run(dir: &std::path::Path) -> bool {
    let Ok(stat) = std::fs::read(dir.join("stat")) else {
        return false;
    };
    // The state follows the name in parentheses, which may itself hold any byte.
    let Some(close) = stat.iter().rposition(|&b| b == b')') else {
        return false;
    };
    stat.get(close + 2) == Some(&b'R')
}

/// [`BotThreads::machine_part`] from what each thread did `since` it was taken.
fn machine_part(since: impl Iterator<Item = SchedStat>, took: Duration, cpus: usize) -> Duration {
    let (mut longest_wait, mut on_cpu) = (0u64, 0u64);
    for thread in since {
        longest_wait = longest_wait.max(thread.waited_ns);
        on_cpu = on_cpu.saturating_add(thread.on_cpu_ns);
    }
    let not_its_own = took.saturating_sub(Duration::from_nanos(on_cpu / cpus.max(1) as u64));
    Duration::from_nanos(longest_wait).min(not_its_own)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_schedstat_line_reads_as_its_times() {
        assert_eq!(
            parse(b"144144 3129391 2\n"),
            Some(SchedStat {
                on_cpu_ns: 144_144,
                waited_ns: 3_129_391,
            })
        );
        assert_eq!(parse(b""), None);
        assert_eq!(parse(b"1 x 2\n"), None);
    }

    /// Four busy threads on fewer CPUs wait for them, and the waiting is read again each
    /// time from the file kept open.
    #[test]
    fn a_thread_that_competes_for_a_cpu_reads_its_wait_growing() {
        if !std::path::Path::new("/proc/thread-self/schedstat").exists() {
            return;
        }
        let cpus = std::thread::available_parallelism().map_or(1, usize::from);
        let waits: Vec<Duration> = std::thread::scope(|scope| {
            let busy: Vec<_> = (0..cpus * 3)
                .map(|_| {
                    scope.spawn(|| {
                        let before = this_thread();
                        let until = Instant::now() + Duration::from_millis(300);
                        while Instant::now() < until {
                            std::hint::spin_loop();
                        }
                        this_thread() - before
                    })
                })
                .collect();
            busy.into_iter().map(|thread| thread.join().unwrap()).collect()
        });
        assert!(
            waits.iter().any(|&waited| waited > Duration::from_millis(5)),
            "{} threads on {cpus} CPUs for 300 ms, waits {waits:?}",
            cpus * 3
        );
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// What each thread did in an answer's time: (on a CPU, waiting for one), in ms.
    fn threads(times: &[(u64, u64)]) -> impl Iterator<Item = SchedStat> + '_ {
        times.iter().map(|&(on_cpu, waited)| SchedStat {
            on_cpu_ns: on_cpu * 1_000_000,
            waited_ns: waited * 1_000_000,
        })
    }

    #[test]
    fn the_longest_wait_of_a_thread_is_the_machine_s_part() {
        // A search thread that the answering thread waited on (a lock) ran 25 ms of 100
        // and waited 75 while other programs had the CPUs.
        assert_eq!(machine_part(threads(&[(0, 1), (25, 75)]), ms(100), 2), ms(75));
        // One thread alone: it had a CPU whenever it wanted one.
        assert_eq!(machine_part(threads(&[(30, 0)]), ms(100), 2), ms(0));
    }

    #[test]
    fn a_bot_whose_threads_keep_one_another_waiting_is_not_excused() {
        // Eight threads spinning on two CPUs that nothing else uses: each waits 75 ms of
        // 100, but the bot had both CPUs the whole time.
        let spinners = [(25, 75); 8];
        assert_eq!(machine_part(threads(&spinners), ms(100), 2), ms(0));
        // The same with half the machine taken by other programs: half is excused.
        let spinners = [(12, 88); 8];
        assert_eq!(machine_part(threads(&spinners), ms(100), 2), ms(52));
    }

    /// A bot made of the shell `script` (in a process group of its own, which is ended
    /// after), asked one line: its threads when asked, its answer, and the time it took;
    /// `machine_part` is read at the answer, before the group ends.
    fn ask(script: &str, cpus: usize) -> (usize, String, Duration, Duration) {
        use std::io::{BufRead, Write};
        use std::os::unix::process::CommandExt;
        let mut child = std::process::Command::new("sh")
            .process_group(0)
            .args(["-c", script])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let threads = BotThreads::of(child.id());
        let asked = Instant::now();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"go\n").unwrap();
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let took = asked.elapsed();
        let excused = threads.machine_part(took, cpus);
        if let Some(group) = rustix::process::Pid::from_raw(child.id() as i32) {
            let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
        }
        let _ = child.wait();
        (threads.threads.len(), line, took, excused)
    }

    /// A child asleep on its input, woken to answer: what is excused is never more than
    /// the time that passed.
    #[test]
    fn a_bot_that_answers_at_once_is_excused_at_most_its_time() {
        let (threads, line, took, excused) = ask("read line; echo \"$line\"; read end", 1);
        assert_eq!(threads, 1);
        assert_eq!(line, "go\n");
        assert!(excused <= took);
    }

    /// A bot that, once asked, starts programs spinning beside its answering thread: the
    /// answering thread waits for a CPU behind them, but they are the bot's own work, so
    /// that wait is not excused.
    #[test]
    fn a_bot_that_starts_spinners_once_asked_is_not_excused_for_them() {
        let cpus = std::thread::available_parallelism().map_or(1, usize::from);
        let script = format!(
            "read line; for i in $(seq {}); do (while :; do :; done) & done; \
             i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done; echo done; read end",
            cpus * 8
        );
        let (_, line, took, excused) = ask(&script, cpus);
        assert_eq!(line, "done\n");
        // Counting only the threads there were, more than four fifths was excused; other
        // programs on the machine may take some of the CPUs, and that part is excused.
        assert!(excused < took * 3 / 5, "{excused:?} of {took:?} excused");
    }
}
