//! Records a run's progress reports, as the window receives them, for the time-left tests
//! (`tests/data/progress-traces/`): one line per report, `seconds tasks_done tasks_total
//! probes hits`, then `end seconds`.
//!
//! ```text
//! progress_trace FEN DEPTH [TT_MODE [TT_MB [THREADS]]]
//! ```

use std::time::Duration;
use vkperft::chess::Position;
use vkperft::engine::{Engine, Event, JobSpec};
use vkperft::tt::TtMode;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: progress_trace FEN DEPTH [TT_MODE [TT_MB [THREADS]]]";
    let fen = args.first().ok_or(usage)?;
    let position = Position::from_fen(fen).map_err(|error| error.to_string())?;
    let depth: u32 = args
        .get(1)
        .ok_or(usage)?
        .parse()
        .map_err(|_| "DEPTH must be a number")?;
    let tt_mode: TtMode = match args.get(2) {
        Some(mode) => mode
            .parse()
            .map_err(|error: vkperft::tt::ParseTtModeError| error.to_string())?,
        None => TtMode::Fast,
    };
    let tt_mb: u64 = match args.get(3) {
        Some(mb) => mb.parse().map_err(|_| "TT_MB must be a number")?,
        None => 64,
    };
    let threads: usize = match args.get(4) {
        Some(threads) => threads.parse().map_err(|_| "THREADS must be a number")?,
        None => 2,
    };
    let mut engine = Engine::spawn(None);
    let spec = JobSpec {
        tt_mode,
        tt_mb: Some(tt_mb),
        threads: Some(threads),
        ..JobSpec::new(position, depth)
    };
    let job = spec
        .job(engine.next_job_id())
        .map_err(|error| error.to_string())?;
    engine.run(job);
    loop {
        let event = engine
            .events()
            .recv_timeout(Duration::from_secs(3600))
            .map_err(|error| error.to_string())?;
        match event {
            Event::Progress { progress, .. } => {
                let (probes, hits) = progress
                    .tt
                    .as_ref()
                    .map_or((0, 0), |tt| (tt.total.probes, tt.total.hits));
                println!(
                    "{:.3} {} {} {probes} {hits}",
                    progress.elapsed.as_secs_f64(),
                    progress.tasks_done,
                    progress.tasks_total
                );
            }
            Event::Finished { result, .. } => {
                println!("end {:.3}", result.elapsed.as_secs_f64());
                return Ok(());
            }
            Event::Failed { error, .. } => return Err(error.to_string()),
            Event::Cancelled { .. } => return Err("cancelled".to_string()),
            Event::Started { .. } | Event::RootMoveDone { .. } => {}
        }
    }
}
