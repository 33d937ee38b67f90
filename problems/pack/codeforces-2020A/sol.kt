import java.io.BufferedReader
import java.io.InputStreamReader
import java.util.StringTokenizer

fun main() {
    val reader = BufferedReader(InputStreamReader(System.`in`))
    val tokens = StringTokenizer(reader.readText())
    val t = tokens.nextToken().toInt()
    val out = StringBuilder()
    repeat(t) {
        var n = tokens.nextToken().toLong()
        val k = tokens.nextToken().toLong()
        var ops = 0L
        if (k == 1L) ops = n else while (n > 0) { ops += n % k; n /= k }
        out.append(ops).append('\n')
    }
    print(out)
}
