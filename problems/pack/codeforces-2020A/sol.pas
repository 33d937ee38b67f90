program Operations;
var
  t, i: longint;
  n, k, ops: int64;
begin
  readln(t);
  for i := 1 to t do
  begin
    readln(n, k);
    if k = 1 then
      ops := n
    else
    begin
      ops := 0;
      while n > 0 do
      begin
        ops := ops + n mod k;
        n := n div k;
      end;
    end;
    writeln(ops);
  end;
end.
