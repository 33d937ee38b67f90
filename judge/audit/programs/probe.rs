// judge audit: the Rust probe program, the mode read from stdin (see judge/audit/).
// cpu MS | mem MB | sleep MS
use std::io::Read;

// Rust's std has no CPU clock; libc's clock_gettime is linked into every Rust program anyway.
#[repr(C)]
struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
}

const CLOCK_PROCESS_CPUTIME_ID: i32 = 2;

fn process_cpu_ms() -> f64 {
    let mut ts = Timespec { tv_sec: 0, tv_nsec: 0 };
    unsafe { clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 * 1e3 + ts.tv_nsec as f64 / 1e6
}

// Spins until the process's own CPU clock reaches ms: whatever the speed of the CPU, it has then
// used at least ms of CPU time. The clock is read every 32768 rounds of xorshift, ~0.1 ms.
fn spin_until(ms: f64) -> u64 {
    let mut x: u64 = 7;
    while process_cpu_ms() < ms {
        for _ in 0..32768 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
        }
    }
    x
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let words: Vec<&str> = input.split_whitespace().collect();
    let arg: f64 = words.get(1).and_then(|w| w.parse().ok()).unwrap_or(0.0);
    match words.first().copied() {
        Some("cpu") => {
            let x = spin_until(arg);
            // x is printed (as nothing) so that the spin cannot be optimised away.
            println!("ok\nprocess_cpu_ms {:.3}{}", process_cpu_ms(), if x == 0 { " " } else { "" });
        }
        Some("mem") => {
            let size = (arg * 1048576.0) as usize;
            let block = vec![1u8; size]; // written, not calloc'd: every page touched
            if size > 0 && unsafe { std::ptr::read_volatile(&block[size / 2]) } != 1 {
                std::process::exit(3);
            }
            println!("ok");
        }
        Some("sleep") => {
            std::thread::sleep(std::time::Duration::from_millis(arg as u64));
            println!("ok");
        }
        _ => std::process::exit(2),
    }
}
