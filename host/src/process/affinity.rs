//! Each synchronous conversation on one core. When the host waits for a bot's answer, the
//! answer's hand-off is a wake-up of the waiting thread; across cores that costs tens of
//! microseconds on virtual machines (twice a round trip), on one core a few. So the thread
//! that plays a seat and the bot process it waits on are placed on the same CPU, one pair a
//! core: the k-th thread that pins takes the k-th CPU of the set the process was started
//! with (a user's own `taskset` is honoured, never crossed). A bot that thinks on several
//! threads while the host waits (a TBP bot searching in the background) is never pinned,
//! nor is anything when `--no-pin` is given or the process may use one CPU only.

use rustix::thread::{sched_getaffinity, sched_setaffinity, CpuSet};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;

/// Whether conversations are pinned (`--no-pin` turns it off).
static ENABLED: AtomicBool = AtomicBool::new(true);

/// Threads pinned so far, which deals the CPUs out in turn.
static PINNED_THREADS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// The CPU this thread and its bots were placed on, once it has one.
    static THIS_THREADS_CPU: Cell<Option<usize>> = const { Cell::new(None) };
}

/// Turns pinning on or off for the rest of the run.
pub fn set_enabled(enabled: bool) {
    ENABLED.store(enabled, Ordering::Relaxed);
}

/// The CPUs this process may run on, as it was started (read once).
fn allowed() -> &'static [usize] {
    static ALLOWED: OnceLock<Vec<usize>> = OnceLock::new();
    ALLOWED.get_or_init(|| match sched_getaffinity(None) {
        Ok(set) => (0..CpuSet::MAX_CPU).filter(|&cpu| set.is_set(cpu)).collect(),
        Err(_) => Vec::new(),
    })
}

/// The CPU of this thread's conversations: on first use the thread is pinned to the next
/// CPU in turn. `None` when pinning is off, there is one CPU to run on, or the kernel
/// refused.
pub fn this_threads_cpu() -> Option<usize> {
    if !ENABLED.load(Ordering::Relaxed) {
        return None;
    }
    if let Some(cpu) = THIS_THREADS_CPU.get() {
        return Some(cpu);
    }
    let cpus = allowed();
    if cpus.len() < 2 {
        return None;
    }
    let cpu = cpus[PINNED_THREADS.fetch_add(1, Ordering::Relaxed) % cpus.len()];
    sched_setaffinity(None, &only(cpu)).ok()?;
    THIS_THREADS_CPU.set(Some(cpu));
    Some(cpu)
}

/// This thread's CPU if it has been pinned (and pinning is on); pins nothing.
pub fn current_cpu() -> Option<usize> {
    THIS_THREADS_CPU.get().filter(|_| ENABLED.load(Ordering::Relaxed))
}

/// The set holding `cpu` alone.
fn only(cpu: usize) -> CpuSet {
    let mut set = CpuSet::new();
    set.set(cpu);
    set
}

/// Asks that the process `command` starts, and all it starts, run on `cpu`.
pub fn pin_child(command: &mut std::process::Command, cpu: usize) {
    use std::os::unix::process::CommandExt;
    let set = only(cpu);
    #[allow(unsafe_code)]
    // SAFETY: the closure runs between fork and exec and makes one system call
    // (sched_setaffinity, through rustix) on a set built before the fork: it allocates
    // nothing and takes no lock. A refusal leaves the child where it was.
    unsafe {
        command.pre_exec(move || {
            let _ = sched_setaffinity(None, &set);
            Ok(())
        });
    }
}

/// Places every thread of the running process `pid` on `cpu` (a bot started before this
/// thread took it for a game).
pub fn pin_process(pid: u32, cpu: usize) {
    let set = only(cpu);
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return;
    };
    for task in tasks.flatten() {
        let tid = task.file_name().to_str().and_then(|tid| tid.parse().ok());
        if let Some(tid) = tid.and_then(rustix::process::Pid::from_raw) {
            let _ = sched_setaffinity(Some(tid), &set);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_keeps_its_cpu_and_threads_take_turns() {
        if allowed().len() < 2 {
            return;
        }
        let first = this_threads_cpu().expect("pinned");
        assert_eq!(this_threads_cpu(), Some(first), "a thread keeps its CPU");
        let now = sched_getaffinity(None).unwrap();
        assert_eq!((now.count(), now.is_set(first)), (1, true));
        let other = std::thread::spawn(this_threads_cpu).join().unwrap().expect("pinned");
        assert!(allowed().contains(&other));
    }
}
