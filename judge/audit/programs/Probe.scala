// judge audit: the Scala probe program, the mode read from stdin (see judge/audit/).
// cpu MS | mem MB | sleep MS
import java.lang.management.{ManagementFactory, ThreadMXBean}

object Probe {
  @volatile var sink = 0L

  // Spins until the calling thread's own CPU clock reaches ns: whatever the speed of the CPU
  // (or the JIT's progress), the thread has then used at least that much CPU time. The clock
  // is read every 32768 rounds of xorshift, about 0.1 ms of compiled work.
  def spinUntil(clock: ThreadMXBean, ns: Long): Long = {
    var x = 7L
    while (clock.getCurrentThreadCpuTime < ns) {
      var i = 0
      while (i < 32768) {
        x ^= x << 13
        x ^= x >>> 7
        x ^= x << 17
        i += 1
      }
    }
    x
  }

  def main(args: Array[String]): Unit = {
    val words = scala.io.StdIn.readLine().trim.split("\\s+")
    val arg = if (words.length > 1) words(1).toDouble else 0.0
    words(0) match {
      case "cpu" =>
        sink += spinUntil(ManagementFactory.getThreadMXBean, (arg * 1e6).toLong)
        val os = ManagementFactory.getOperatingSystemMXBean
          .asInstanceOf[com.sun.management.OperatingSystemMXBean]
        // As the Java probe: getProcessCpuTime counts 10 ms clock ticks; wait (using no CPU,
        // 200 ms at most) until the JIT's own threads stop adding to it.
        var cpu = os.getProcessCpuTime
        var quiet = 0
        var waited = 0
        while (quiet < 3 && waited < 20) {
          Thread.sleep(10)
          val now = os.getProcessCpuTime
          quiet = if (now == cpu) quiet + 1 else 0
          cpu = now
          waited += 1
        }
        System.out.println("ok")
        System.out.print("process_cpu_ms ")
        System.out.println(cpu / 1000000)
        return
      case "mem" =>
        val size = (arg * 1048576.0).toLong
        if (size > 0) {
          val block = new Array[Byte](size.toInt)
          var i = 0
          while (i < block.length) { block(i) = 1; i += 4096 }  // every page touched
          sink += block(block.length / 2)
        }
      case "sleep" => Thread.sleep(arg.toLong)
      case _ => System.exit(2)
    }
    println("ok")
  }
}
