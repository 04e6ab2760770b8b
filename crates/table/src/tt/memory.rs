//! The memory the machine has for a table: a budget it cannot meet is an error for the user,
//! never an abort or a later kill by the OOM killer.
//!
//! Two limits count, whichever is lower: the host's `MemAvailable`, and the memory limit of
//! the process's cgroup less what the group uses (Slurm's `--mem`, Kubernetes' limits and
//! containers set it; the OOM killer enforces it whatever the host has free). cgroup v2 gives
//! the limit in `memory.max`, v1 in `memory.limit_in_bytes`; a group's ancestors limit it too.
//! The page cache the kernel can drop (`inactive_file`) does not count as used.

use std::fmt;

/// Where a limit on memory comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemorySource {
    /// `MemAvailable` in `/proc/meminfo`.
    Host,
    /// The limit of the process's cgroup, less its use.
    Cgroup,
}

impl fmt::Display for MemorySource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MemorySource::Host => "MemAvailable in /proc/meminfo",
            MemorySource::Cgroup => "the memory limit of this process's cgroup, less its use",
        })
    }
}

/// Memory available to this process in bytes, and which limit gives it, where the system
/// reports one.
pub fn available_memory() -> Option<(usize, MemorySource)> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    lowest(
        read("/proc/meminfo")
            .as_deref()
            .and_then(parse_mem_available)
            .map(|bytes| (bytes, MemorySource::Host)),
        cgroup_headroom(&read).map(|bytes| (bytes, MemorySource::Cgroup)),
    )
}

fn lowest(
    a: Option<(usize, MemorySource)>,
    b: Option<(usize, MemorySource)>,
) -> Option<(usize, MemorySource)> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
        (a, b) => a.or(b),
    }
}

fn parse_mem_available(meminfo: &str) -> Option<usize> {
    let line = meminfo
        .lines()
        .find_map(|line| line.strip_prefix("MemAvailable:"))?;
    let kib: usize = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    kib.checked_mul(1024)
}

/// The files of one cgroup version.
struct CgroupFiles {
    mount: &'static str,
    limit: &'static str,
    usage: &'static str,
    /// The key of `memory.stat` that counts the page cache the kernel can drop.
    inactive_file: &'static str,
}

const CGROUP_V2: CgroupFiles = CgroupFiles {
    mount: "/sys/fs/cgroup",
    limit: "memory.max",
    usage: "memory.current",
    inactive_file: "inactive_file",
};

const CGROUP_V1: CgroupFiles = CgroupFiles {
    mount: "/sys/fs/cgroup/memory",
    limit: "memory.limit_in_bytes",
    usage: "memory.usage_in_bytes",
    inactive_file: "total_inactive_file",
};

/// The least headroom (limit less use) over the memory cgroup of this process and its
/// ancestors, read through `read` (a path to its text); `None` where no group has a limit.
fn cgroup_headroom(read: &dyn Fn(&str) -> Option<String>) -> Option<usize> {
    let membership = read("/proc/self/cgroup")?;
    let mut headroom: Option<usize> = None;
    for line in membership.lines() {
        let mut fields = line.splitn(3, ':');
        let (Some(id), Some(controllers), Some(path)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let files = if id == "0" && controllers.is_empty() {
            &CGROUP_V2
        } else if controllers.split(',').any(|c| c == "memory") {
            &CGROUP_V1
        } else {
            continue;
        };
        // The group's folder, then each ancestor's up to the mount (where a container sees
        // its own group when the path names the host's).
        let mut dir = path.trim_end_matches('/').to_string();
        loop {
            let folder = format!("{}{dir}", files.mount);
            if let Some(room) = group_headroom(read, &folder, files) {
                headroom = Some(headroom.map_or(room, |h| h.min(room)));
            }
            match dir.rfind('/') {
                Some(at) => dir.truncate(at),
                None => break,
            }
        }
    }
    headroom
}

/// The headroom of the group in `folder`, if it has a limit.
fn group_headroom(
    read: &dyn Fn(&str) -> Option<String>,
    folder: &str,
    files: &CgroupFiles,
) -> Option<usize> {
    let limit: u64 = read(&format!("{folder}/{}", files.limit))?
        .trim()
        .parse()
        .ok()?;
    let usage: u64 = read(&format!("{folder}/{}", files.usage))
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(0);
    let droppable: u64 = read(&format!("{folder}/memory.stat"))
        .and_then(|stat| {
            stat.lines().find_map(|line| {
                let (key, value) = line.split_once(' ')?;
                (key == files.inactive_file).then(|| value.trim().parse().ok())?
            })
        })
        .unwrap_or(0);
    let used = usage.saturating_sub(droppable);
    usize::try_from(limit.saturating_sub(used)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn reads_mem_available() {
        let meminfo = "MemTotal:       32000000 kB\nMemAvailable:   24380104 kB\n";
        assert_eq!(parse_mem_available(meminfo), Some(24380104 * 1024));
        assert_eq!(parse_mem_available("MemTotal: 1 kB\n"), None);
    }

    fn files(entries: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = entries
            .iter()
            .map(|(path, text)| (path.to_string(), text.to_string()))
            .collect();
        move |path: &str| map.get(path).cloned()
    }

    /// A Slurm job's group with `--mem=1G` under a parent without a limit (cgroup v2), its page
    /// cache not counted as used.
    #[test]
    fn a_cgroup_v2_limit_less_its_use() {
        let read = files(&[
            (
                "/proc/self/cgroup",
                "0::/system.slice/slurmstepd.scope/job_7\n",
            ),
            ("/sys/fs/cgroup/system.slice/memory.max", "max\n"),
            (
                "/sys/fs/cgroup/system.slice/slurmstepd.scope/job_7/memory.max",
                "1073741824\n",
            ),
            (
                "/sys/fs/cgroup/system.slice/slurmstepd.scope/job_7/memory.current",
                "209715200\n",
            ),
            (
                "/sys/fs/cgroup/system.slice/slurmstepd.scope/job_7/memory.stat",
                "anon 100\nfile 104857600\ninactive_file 104857600\n",
            ),
        ]);
        assert_eq!(cgroup_headroom(&read), Some((1 << 30) - (100 << 20)));
    }

    /// An ancestor's lower limit counts; a group without a limit gives none.
    #[test]
    fn the_lowest_limit_of_the_group_and_its_ancestors() {
        let read = files(&[
            ("/proc/self/cgroup", "0::/a/b\n"),
            ("/sys/fs/cgroup/a/memory.max", "536870912\n"),
            ("/sys/fs/cgroup/a/memory.current", "0\n"),
            ("/sys/fs/cgroup/a/b/memory.max", "max\n"),
        ]);
        assert_eq!(cgroup_headroom(&read), Some(512 << 20));
        let unlimited = files(&[
            ("/proc/self/cgroup", "0::/\n"),
            ("/sys/fs/cgroup/memory.max", "max\n"),
        ]);
        assert_eq!(cgroup_headroom(&unlimited), None);
        assert_eq!(cgroup_headroom(&files(&[])), None);
    }

    /// cgroup v1: the memory controller's line, `memory.limit_in_bytes`; a container that sees
    /// its own group at the mount although its path names the host's.
    #[test]
    fn a_cgroup_v1_limit() {
        let read = files(&[
            (
                "/proc/self/cgroup",
                "5:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n0::/\n",
            ),
            (
                "/sys/fs/cgroup/memory/memory.limit_in_bytes",
                "2147483648\n",
            ),
            (
                "/sys/fs/cgroup/memory/memory.usage_in_bytes",
                "1073741824\n",
            ),
            (
                "/sys/fs/cgroup/memory/memory.stat",
                "cache 5\ntotal_inactive_file 536870912\n",
            ),
        ]);
        assert_eq!(cgroup_headroom(&read), Some(1536 << 20));
    }

    #[test]
    fn the_lower_of_host_and_cgroup() {
        let host = Some((8 << 30, MemorySource::Host));
        let group = Some((1 << 30, MemorySource::Cgroup));
        assert_eq!(lowest(host, group), group);
        assert_eq!(lowest(host, None), host);
        assert_eq!(lowest(None, group), group);
    }
}
