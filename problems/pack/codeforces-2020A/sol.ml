let () =
  let t = Scanf.scanf " %d" (fun x -> x) in
  let buf = Buffer.create (16 * t) in
  for _ = 1 to t do
    let n, k = Scanf.scanf " %d %d" (fun a b -> (a, b)) in
    let ops =
      if k = 1 then n
      else begin
        let n = ref n and ops = ref 0 in
        while !n > 0 do
          ops := !ops + (!n mod k);
          n := !n / k
        done;
        !ops
      end
    in
    Buffer.add_string buf (string_of_int ops);
    Buffer.add_char buf '\n'
  done;
  print_string (Buffer.contents buf)
