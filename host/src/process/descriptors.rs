//! Descriptors a child must not inherit: everything above stderr, whoever opened it (the
//! user's shell, a plugin loaded in this process), so a bot cannot write to a file or a
//! terminal it was never given.

/// Marks every descriptor above stderr close-on-exec, in one system call where the kernel
/// has `close_range` (Linux 5.11); async-signal-safe, so a child may call it between fork
/// and exec. Elsewhere it does nothing: see [`inherited_close_on_exec`].
pub fn close_on_exec_above_stderr() {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    #[allow(unsafe_code)]
    // SAFETY: close_range takes plain integers and touches only this process's table of
    // descriptors; with CLOSE_RANGE_CLOEXEC it closes nothing now, so no descriptor owned
    // by Rust code here becomes invalid.
    unsafe {
        libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, libc::CLOSE_RANGE_CLOEXEC);
    }
}

/// Marks every descriptor above stderr that this process inherited close-on-exec, at its
/// start: where `close_range` is missing, one by one from `/proc/self/fd`.
pub fn inherited_close_on_exec() {
    close_on_exec_above_stderr();
    #[cfg(any(target_os = "linux", target_os = "android"))]
    if let Ok(entries) = std::fs::read_dir("/proc/self/fd") {
        let numbers: Vec<i32> = entries
            .flatten()
            .filter_map(|entry| entry.file_name().to_str()?.parse().ok())
            .filter(|&fd| fd > 2)
            .collect();
        for fd in numbers {
            #[allow(unsafe_code)]
            // SAFETY: fcntl(F_GETFD/F_SETFD) on a number that may or may not be open reads
            // or sets one flag and fails harmlessly on a closed one; it owns nothing.
            unsafe {
                let flags = libc::fcntl(fd, libc::F_GETFD);
                if flags >= 0 && flags & libc::FD_CLOEXEC == 0 {
                    libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC);
                }
            }
        }
    }
}
