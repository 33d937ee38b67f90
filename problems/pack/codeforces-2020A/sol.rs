use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut numbers = input.split_ascii_whitespace().map(|x| x.parse::<u64>().unwrap());
    let t = numbers.next().unwrap();
    let mut out = String::new();
    for _ in 0..t {
        let (mut n, k) = (numbers.next().unwrap(), numbers.next().unwrap());
        let mut ops = 0;
        if k == 1 {
            ops = n;
        } else {
            while n > 0 {
                ops += n % k;
                n /= k;
            }
        }
        out.push_str(&format!("{}\n", ops));
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
