module tb;
  integer t, i, code;
  longint n, k, ops;
  initial begin
    code = $fscanf(32'h8000_0000, "%d", t);
    for (i = 0; i < t; i = i + 1) begin
      code = $fscanf(32'h8000_0000, "%d %d", n, k);
      if (k == 1) ops = n;
      else begin
        ops = 0;
        while (n > 0) begin
          ops = ops + n % k;
          n = n / k;
        end
      end
      $display("%0d", ops);
    end
    $finish;
  end
endmodule
