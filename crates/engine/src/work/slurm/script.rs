//! The two batch scripts of a submission: the job array (one task per shard) and the merge.
//! Every path in them is absolute: tasks start in other folders, on other machines.

use crate::work::error::WorkError;
use crate::work::folder::sync_dir;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const SLURM_DIR: &str = "slurm";
const SHARDS_SCRIPT: &str = "shards.sbatch";
const MERGE_SCRIPT: &str = "merge.sbatch";
/// The variable in which Slurm gives each array task its index: here the shard.
const TASK_VARIABLE: &str = "SLURM_ARRAY_TASK_ID";

/// What the jobs ask of the cluster; `None` leaves the cluster's default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SlurmResources {
    pub partition: Option<String>,
    /// Per task and for the merge, in any of Slurm's formats (`90`, `2:00:00`, `1-12`).
    pub time_limit: Option<String>,
    pub gpus_per_task: Option<u32>,
    /// The CPUs a task reserves: the threads it runs (`--threads`).
    pub cpus_per_task: Option<u32>,
    /// At most this many tasks run at once (`--array=...%N`).
    pub max_parallel: Option<u32>,
}

/// One submission: the shards of a plan to run, with what each task is given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlurmJobs {
    /// The plan folder, absolute.
    pub plan: PathBuf,
    /// The vkperft binary, absolute.
    pub program: PathBuf,
    /// The shards, in order, none twice.
    pub shards: Vec<usize>,
    pub resources: SlurmResources,
    /// The `work run` options forwarded to every task, as command-line arguments.
    pub run_args: Vec<String>,
    /// Whether the merge prints the divide: a perft plan's (a plan of unique positions has
    /// none).
    pub divide: bool,
}

/// The folder of the plan `plan` that holds the batch scripts, the jobs' logs and the ids of
/// the last submission.
pub fn slurm_dir(plan: &Path) -> PathBuf {
    plan.join(SLURM_DIR)
}

/// Shards as Slurm's `--array` takes them, consecutive ones as ranges: `0-2,5,7-9`.
pub fn array_spec(shards: &[usize]) -> String {
    let mut spec = String::new();
    let mut rest = shards.iter().copied().peekable();
    while let Some(first) = rest.next() {
        let mut last = first;
        while rest.peek() == Some(&(last + 1)) {
            last += 1;
            rest.next();
        }
        if !spec.is_empty() {
            spec.push(',');
        }
        match last - first {
            0 => write!(spec, "{first}"),
            _ => write!(spec, "{first}-{last}"),
        }
        .expect("writing to a String cannot fail");
    }
    spec
}

/// `text` quoted for the shell: as is when it is made of harmless characters only.
pub fn shell_quote(text: &str) -> String {
    let harmless = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+%@".contains(c);
    if !text.is_empty() && text.chars().all(harmless) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// An `#SBATCH` line. sbatch reads these itself (not the shell): a value with spaces is
/// double-quoted, and one that could end the line or the quotes is refused.
fn directive(script: &mut String, option: &str, value: &str) -> Result<(), WorkError> {
    if value.is_empty() || value.chars().any(|c| c.is_control() || c == '"') {
        return Err(WorkError::SlurmOption {
            option: option.to_string(),
            value: value.to_string(),
        });
    }
    let value = if value.contains(char::is_whitespace) {
        format!("\"{value}\"")
    } else {
        value.to_string()
    };
    writeln!(script, "#SBATCH --{option}={value}").expect("writing to a String cannot fail");
    Ok(())
}

/// A name Slurm shows in `squeue`: the plan folder's name, reduced to safe characters.
fn job_name(kind: &str, plan: &Path) -> String {
    let folder = plan
        .file_name()
        .map_or_else(String::new, |name| name.to_string_lossy().into_owned());
    let safe: String = folder
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("vkperft-{kind}-{safe}")
}

impl SlurmJobs {
    pub fn slurm_dir(&self) -> PathBuf {
        slurm_dir(&self.plan)
    }

    pub fn shards_script_path(&self) -> PathBuf {
        self.slurm_dir().join(SHARDS_SCRIPT)
    }

    pub fn merge_script_path(&self) -> PathBuf {
        self.slurm_dir().join(MERGE_SCRIPT)
    }

    /// The log of array task `shard` of job `array`, as `--output` names it.
    pub fn task_log(&self, array: u64, shard: usize) -> PathBuf {
        self.slurm_dir().join(format!("{array}_{shard}.log"))
    }

    /// The log of the merge job `job`: the total, or the units still missing.
    pub fn merge_log(&self, job: u64) -> PathBuf {
        self.slurm_dir().join(format!("merge-{job}.log"))
    }

    /// Slurm expands `%` in `--output` and sbatch reads the directive up to a quote or the
    /// line's end, so the log folder's path may hold none of them.
    fn log_pattern(&self, file: &str) -> Result<String, WorkError> {
        let dir = self.slurm_dir();
        match dir.to_str() {
            Some(text) if !text.contains(['%', '"', '\n', '\r']) => Ok(format!("{text}/{file}")),
            _ => Err(WorkError::SlurmLogPath { path: dir }),
        }
    }

    /// The directives both jobs share.
    fn common_directives(&self, script: &mut String, kind: &str) -> Result<(), WorkError> {
        let resources = &self.resources;
        directive(script, "job-name", &job_name(kind, &self.plan))?;
        directive(script, "chdir", &self.plan.to_string_lossy())?;
        directive(script, "ntasks", "1")?;
        if let Some(partition) = &resources.partition {
            directive(script, "partition", partition)?;
        }
        if let Some(time) = &resources.time_limit {
            directive(script, "time", time)?;
        }
        Ok(())
    }

    /// `exec vkperft ARGS...`, every argument quoted.
    fn command_line(&self, args: &[&str]) -> String {
        let mut line = format!("exec {}", shell_quote(&self.program.to_string_lossy()));
        for arg in args {
            line.push(' ');
            line.push_str(&shell_quote(arg));
        }
        line.push('\n');
        line
    }

    /// The job array: task K runs `vkperft work run PLAN --shard-from-env SLURM_ARRAY_TASK_ID`
    /// with the run options, so its shard is K.
    pub fn shards_script(&self) -> Result<String, WorkError> {
        let plan = self.plan.to_string_lossy();
        let mut script = format!(
            "#!/bin/bash\n\
             # Written by `vkperft work slurm`: one task per shard of the plan {plan} that was not\n\
             # complete. Tasks skip units already journaled, so submitting this again is safe;\n\
             # `vkperft work slurm` again submits only the shards still incomplete.\n"
        );
        let resources = &self.resources;
        let mut array = array_spec(&self.shards);
        if let Some(limit) = resources.max_parallel {
            array += &format!("%{limit}");
        }
        directive(&mut script, "array", &array)?;
        directive(&mut script, "output", &self.log_pattern("%A_%a.log")?)?;
        self.common_directives(&mut script, "shards")?;
        if let Some(cpus) = resources.cpus_per_task {
            directive(&mut script, "cpus-per-task", &cpus.to_string())?;
        }
        if let Some(gpus) = resources.gpus_per_task {
            directive(&mut script, "gpus-per-task", &gpus.to_string())?;
        }
        let mut args = vec!["work", "run", &plan, "--shard-from-env", TASK_VARIABLE];
        args.extend(self.run_args.iter().map(String::as_str));
        script += &self.command_line(&args);
        Ok(script)
    }

    /// The merge: the total (and divide) when every unit has a result, else the units missing
    /// (exit 4) or disagreeing (exit 3), in its log.
    pub fn merge_script(&self) -> Result<String, WorkError> {
        let plan = self.plan.to_string_lossy();
        let mut script = format!(
            "#!/bin/bash\n\
             # Written by `vkperft work slurm`: the total of the plan {plan}, once its shard\n\
             # tasks have ended (exit 4 and the units still missing while some have no result).\n"
        );
        directive(&mut script, "output", &self.log_pattern("merge-%j.log")?)?;
        self.common_directives(&mut script, "merge")?;
        let mut args = vec!["work", "merge", &plan];
        if self.divide {
            args.push("--divide");
        }
        script += &self.command_line(&args);
        Ok(script)
    }

    /// Writes both scripts into the plan's `slurm/` folder, each whole or not at all (written
    /// aside, then renamed over the last submission's).
    pub fn write_scripts(&self) -> Result<(), WorkError> {
        let dir = self.slurm_dir();
        std::fs::create_dir_all(&dir).map_err(|e| WorkError::io(&dir, e))?;
        for (path, text) in [
            (self.shards_script_path(), self.shards_script()?),
            (self.merge_script_path(), self.merge_script()?),
        ] {
            let aside = path.with_extension(format!("sbatch.{}", std::process::id()));
            std::fs::write(&aside, text).map_err(|e| WorkError::io(&aside, e))?;
            std::fs::rename(&aside, &path).map_err(|e| WorkError::io(&path, e))?;
        }
        sync_dir(&dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jobs() -> SlurmJobs {
        SlurmJobs {
            plan: PathBuf::from("/scratch/plans/p 8"),
            program: PathBuf::from("/opt/vkperft/bin/vkperft"),
            shards: vec![0, 1, 2, 5],
            resources: SlurmResources {
                partition: Some("gpu".into()),
                time_limit: Some("2:00:00".into()),
                gpus_per_task: Some(1),
                cpus_per_task: Some(4),
                max_parallel: Some(16),
            },
            run_args: vec!["--backend".into(), "vulkan".into()],
            divide: true,
        }
    }

    #[test]
    fn arrays_list_consecutive_shards_as_ranges() {
        assert_eq!(array_spec(&[0, 1, 2, 5, 7, 8, 9]), "0-2,5,7-9");
        assert_eq!(array_spec(&[3]), "3");
        assert_eq!(array_spec(&[3, 5]), "3,5");
        assert_eq!(array_spec(&[]), "");
    }

    #[test]
    fn the_array_script_runs_each_shard_with_the_run_options() {
        let script = jobs().shards_script().expect("a script");
        let expected = "#SBATCH --array=0-2,5%16\n\
             #SBATCH --output=\"/scratch/plans/p 8/slurm/%A_%a.log\"\n\
             #SBATCH --job-name=vkperft-shards-p_8\n\
             #SBATCH --chdir=\"/scratch/plans/p 8\"\n\
             #SBATCH --ntasks=1\n\
             #SBATCH --partition=gpu\n\
             #SBATCH --time=2:00:00\n\
             #SBATCH --cpus-per-task=4\n\
             #SBATCH --gpus-per-task=1\n\
             exec /opt/vkperft/bin/vkperft work run '/scratch/plans/p 8' --shard-from-env SLURM_ARRAY_TASK_ID --backend vulkan\n";
        assert!(script.starts_with("#!/bin/bash\n"), "{script}");
        assert!(script.ends_with(expected), "{script}");
    }

    #[test]
    fn the_merge_script_asks_for_no_gpu() {
        let script = jobs().merge_script().expect("a script");
        assert!(
            script.contains("#SBATCH --output=\"/scratch/plans/p 8/slurm/merge-%j.log\"\n"),
            "{script}"
        );
        assert!(
            !script.contains("gpus") && !script.contains("cpus"),
            "{script}"
        );
        assert!(script
            .ends_with("exec /opt/vkperft/bin/vkperft work merge '/scratch/plans/p 8' --divide\n"));
    }

    #[test]
    fn values_that_would_break_a_script_are_refused() {
        let mut bad = jobs();
        bad.resources.partition = Some("gpu\nrm -rf /".into());
        assert!(matches!(
            bad.shards_script(),
            Err(WorkError::SlurmOption { option, .. }) if option == "partition"
        ));
        let mut bad = jobs();
        bad.plan = PathBuf::from("/scratch/100%/p8");
        assert!(matches!(
            bad.merge_script(),
            Err(WorkError::SlurmLogPath { .. })
        ));
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }
}
