// judge audit: the Kotlin probe program, the mode read from stdin (see judge/audit/).
// cpu MS | mem MB | sleep MS
import java.lang.management.ManagementFactory
import java.lang.management.ThreadMXBean

@Volatile var sink = 0L

// Spins until the calling thread's own CPU clock reaches ns: whatever the speed of the CPU (or
// the JIT's progress), the thread has then used at least that much CPU time. The clock is read
// every 32768 rounds of xorshift, about 0.1 ms of compiled work.
fun spinUntil(clock: ThreadMXBean, ns: Long): Long {
    var x = 7L
    while (clock.currentThreadCpuTime < ns) {
        for (i in 0 until 32768) {
            x = x xor (x shl 13)
            x = x xor (x ushr 7)
            x = x xor (x shl 17)
        }
    }
    return x
}

fun main() {
    val words = readLine()!!.trim().split(Regex("\\s+"))
    val arg = words.getOrNull(1)?.toDouble() ?: 0.0
    when (words[0]) {
        "cpu" -> {
            sink += spinUntil(ManagementFactory.getThreadMXBean(), (arg * 1e6).toLong())
            val os = ManagementFactory.getOperatingSystemMXBean() as com.sun.management.OperatingSystemMXBean
            // As the Java probe: getProcessCpuTime counts 10 ms clock ticks; wait (using no
            // CPU, 200 ms at most) until the JIT's own threads stop adding to it.
            var cpu = os.processCpuTime
            var quiet = 0
            var waited = 0
            while (quiet < 3 && waited < 20) {
                Thread.sleep(10)
                val now = os.processCpuTime
                quiet = if (now == cpu) quiet + 1 else 0
                cpu = now
                waited++
            }
            System.out.println("ok")
            System.out.print("process_cpu_ms ")
            System.out.println(cpu / 1000000)
            return
        }
        "mem" -> {
            val size = (arg * 1048576.0).toLong()
            if (size > 0) {
                val block = ByteArray(size.toInt())
                for (i in 0 until block.size step 4096) block[i] = 1  // every page touched
                sink += block[block.size / 2]
            }
        }
        "sleep" -> Thread.sleep(arg.toLong())
        else -> System.exit(2)
    }
    println("ok")
}
