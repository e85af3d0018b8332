//! Keeps lf-opt's worker threads on distinct CPUs.
//!
//! Some kernels pack runnable threads onto few CPUs while their recent load
//! looks small (the VMs lf is benchmarked on do: `sched_vcpu_pack`). A rayon
//! worker that slept through the parse wakes with a small load, so when
//! verification starts both workers can land on one CPU and share it in 4 ms
//! slices for tens of milliseconds while the other CPU idles. When lf-opt
//! runs one worker per CPU it may use, [`pin_workers`] gives worker `i` the
//! `i`-th of those CPUs, so they cannot be stacked. With fewer workers than
//! CPUs (`--threads` below the count) the workers are left to the kernel:
//! pinning them would crowd every such lf-opt onto the first CPUs.

/// The CPUs this process may run on, in increasing order (empty where this is
/// unknown).
pub fn allowed_cpus() -> Vec<usize> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `cpu_set_t` is plain data, valid when zeroed, and
        // `sched_getaffinity` writes at most `size_of::<cpu_set_t>()` bytes.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        let size = std::mem::size_of::<libc::cpu_set_t>();
        if unsafe { libc::sched_getaffinity(0, size, &mut set) } != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| unsafe { libc::CPU_ISSET(c, &set) })
            .collect()
    }
    #[cfg(not(target_os = "linux"))]
    Vec::new()
}

/// Restricts the calling thread to `cpu`; false where that failed or is not
/// supported.
pub fn pin_current_thread(cpu: usize) -> bool {
    #[cfg(target_os = "linux")]
    {
        if cpu >= libc::CPU_SETSIZE as usize {
            return false;
        }
        // SAFETY: as in `allowed_cpus`; `cpu` is below `CPU_SETSIZE`.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        unsafe { libc::CPU_SET(cpu, &mut set) };
        let size = std::mem::size_of::<libc::cpu_set_t>();
        unsafe { libc::sched_setaffinity(0, size, &set) == 0 }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = cpu;
        false
    }
}

/// The CPU worker `index` of a pool of `threads` workers should keep to, or
/// `None` to leave it to the kernel: workers are pinned only when there is
/// one per allowed CPU (`cpus`, from [`allowed_cpus`]).
pub fn worker_cpu(cpus: &[usize], threads: usize, index: usize) -> Option<usize> {
    if threads < 2 || threads != cpus.len() {
        return None;
    }
    cpus.get(index).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pins_only_one_worker_per_allowed_cpu() {
        let cpus = [2, 5];
        assert_eq!(worker_cpu(&cpus, 2, 0), Some(2));
        assert_eq!(worker_cpu(&cpus, 2, 1), Some(5));
        // Fewer or more workers than CPUs, or one worker: left to the kernel.
        assert_eq!(worker_cpu(&cpus, 1, 0), None);
        assert_eq!(worker_cpu(&cpus, 3, 0), None);
        assert_eq!(worker_cpu(&[0], 1, 0), None);
        assert_eq!(worker_cpu(&[], 2, 0), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_allowed_cpus_include_the_one_this_thread_runs_on() {
        let cpus = allowed_cpus();
        assert!(!cpus.is_empty());
        let here = unsafe { libc::sched_getcpu() };
        assert!(here >= 0 && cpus.contains(&(here as usize)), "{here} not in {cpus:?}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_pinned_thread_runs_only_on_its_cpu() {
        let before = allowed_cpus();
        let last = *before.last().expect("some CPU");
        let seen = std::thread::spawn(move || {
            assert!(pin_current_thread(last));
            let mine = allowed_cpus();
            std::thread::yield_now();
            (mine, unsafe { libc::sched_getcpu() })
        })
        .join()
        .unwrap();
        assert_eq!(seen, (vec![last], last as i32));
        // Pinning one thread leaves the others' set as it was.
        assert_eq!(allowed_cpus(), before);
        assert!(!pin_current_thread(libc::CPU_SETSIZE as usize));
    }
}
