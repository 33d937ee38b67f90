{ judge audit: the Pascal probe program, the mode read from stdin (see judge/audit/).
  cpu MS | mem MB | sleep MS }
program Probe;

uses BaseUnix, Linux, SysUtils;

{ The process's own CPU time, from the kernel's clock (FPC's Linux unit calls it directly). }
function ProcessCpuMs: Double;
var
  ts: TTimeSpec;
begin
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, @ts);
  ProcessCpuMs := ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
end;

{ Spins until the process's own CPU clock reaches ms: whatever the speed of the CPU, it has then
  used at least ms of CPU time. The clock is read every 32768 rounds of xorshift, ~0.1 ms. }
function SpinUntil(ms: Double): QWord;
var
  x: QWord;
  i: LongInt;
begin
  x := 7;
  while ProcessCpuMs < ms do
    for i := 1 to 32768 do
    begin
      x := x xor (x shl 13);
      x := x xor (x shr 7);
      x := x xor (x shl 17);
    end;
  SpinUntil := x;
end;

var
  mode, line: String;
  arg: Double;
  size: PtrUInt;
  block: PByte;
  request: TTimeSpec;
begin
  FormatSettings.DecimalSeparator := '.';
  { The mode and its number; the C++ and Java probes' thread count after it is not read. }
  ReadLn(line);
  line := Trim(line) + ' ';
  mode := Copy(line, 1, Pos(' ', line) - 1);
  line := TrimLeft(Copy(line, Pos(' ', line) + 1, Length(line))) + ' ';
  arg := StrToFloatDef(Copy(line, 1, Pos(' ', line) - 1), 0);
  if mode = 'cpu' then
  begin
    if SpinUntil(arg) = 0 then Write(' ');
    WriteLn('ok');
    WriteLn('process_cpu_ms ', ProcessCpuMs:0:3);
  end
  else if mode = 'mem' then
  begin
    size := Trunc(arg * 1048576);
    if size > 0 then
    begin
      GetMem(block, size);
      FillChar(block^, size, 1);   { every page touched }
      if block[size div 2] <> 1 then Halt(3);
    end;
    WriteLn('ok');
  end
  else if mode = 'sleep' then
  begin
    request.tv_sec := Trunc(arg) div 1000;
    request.tv_nsec := (Trunc(arg) mod 1000) * 1000000;
    FpNanoSleep(@request, nil);
    WriteLn('ok');
  end
  else
    Halt(2);
end.
