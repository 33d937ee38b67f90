(* judge audit: the OCaml probe program, the mode read from stdin (see judge/audit/).
   cpu MS | mem MB | sleep MS *)

(* Sys.time is the process's own CPU time, user and system (getrusage). *)
let process_cpu_ms () = Sys.time () *. 1000.

(* Spins until the process's own CPU clock reaches ms: whatever the speed of the CPU, it has
   then used at least ms of CPU time. The clock is read every 32768 rounds of xorshift, ~0.1 ms. *)
let spin_until ms =
  let x = ref 7 in
  while process_cpu_ms () < ms do
    for _ = 1 to 32768 do
      x := !x lxor (!x lsl 13);
      x := !x lxor (!x lsr 7);
      x := !x lxor (!x lsl 17)
    done
  done;
  !x

let () =
  let mode, arg = Scanf.scanf " %s %f" (fun m a -> (m, a)) in
  match mode with
  | "cpu" ->
    let x = spin_until arg in
    Printf.printf "ok\nprocess_cpu_ms %.3f\n%s" (process_cpu_ms ()) (if x = 0 then " " else "")
  | "mem" ->
    let size = int_of_float (arg *. 1048576.) in
    let block = Bytes.make size '\001' in   (* written: every page touched *)
    if size > 0 && Bytes.get block (size / 2) <> '\001' then exit 3;
    print_endline "ok"
  | "sleep" -> Unix.sleepf (arg /. 1000.); print_endline "ok"
  | _ -> exit 2
