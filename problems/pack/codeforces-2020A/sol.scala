object Main {
  def main(args: Array[String]): Unit = {
    val tokens = scala.io.Source.stdin.mkString.split("\\s+").filter(_.nonEmpty).map(_.toLong)
    val t = tokens(0).toInt
    val out = new StringBuilder
    for (i <- 0 until t) {
      var n = tokens(1 + 2 * i)
      val k = tokens(2 + 2 * i)
      var ops = 0L
      if (k == 1) ops = n else while (n > 0) { ops += n % k; n /= k }
      out.append(ops).append('\n')
    }
    print(out)
  }
}
