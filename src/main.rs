fn main() {
    let args: Vec<String> = std::env::args().collect();
    let pos = vkperft::chess::Position::from_fen(&args[1]).unwrap();
    let d: u32 = args[2].parse().unwrap();
    vkperft::chess::attacks::init();
    let t = std::time::Instant::now();
    let n = vkperft::cpu::reference::perft(&pos, d);
    let s = t.elapsed().as_secs_f64();
    println!("{n} {s:.3}s {:.1} Mnps", n as f64 / s / 1e6);
}
