/*
 * testlib.h: the judge's own implementation of testlib's checker interface.
 *
 * Custom checkers in problem sets are written against testlib
 * (https://github.com/MikeMirzayanov/testlib). This header is written independently of it:
 * it offers the calls checkers make, with the verdicts, exit codes and messages testlib gives,
 * so that such checkers build and judge without a testlib checkout.
 *
 * Covered: registerTestlibCmd and registerInteraction; the inf/ouf/ans streams with testlib's reading rules (blanks,
 * tokens, lines, lone CRs, number syntax, ranges, patterns, strict mode, the 128 MB file and
 * 32 MB token limits); quit/quitf/quitif/quitp/quitpi, TResult and _pc; ensure/ensuref;
 * test cases; the end-of-program checks; doubleCompare, doubleDelta and the text helpers.
 * Not covered: generators (rnd), validators, report files (argv[4], -appes),
 * the --testset and --group options, colours on a terminal.
 *
 * A checker runs as `checker <input> <output> <answer>`, writes one line to stderr ("ok 3
 * numbers", "wrong answer ...", "wrong output format ...", "FAIL ...", "points 0.5 ...") and
 * exits with 0 (OK), 1 (WA), 2 (PE), 3 (FAIL) or 7 (points).
 *
 * An interactor runs as `interactor <input> <output> [<answer>]`: ouf is its stdin, read as the
 * program writes it (a read waits for the program's next bytes), what it writes to stdout
 * reaches the program, and `tout` is the output file, later the checker's output. It ends
 * with the same lines and exit codes; an accepted interaction is not checked for extra output.
 *
 * Run by the judge, the program is also given a fresh secret in JUDGE_TESTLIB_MARK; the header
 * then writes two records to a copy of stderr, each in one write: "JUDGE-MARK <secret> begin"
 * when the program registers, and "JUDGE-MARK <secret> read <CPU microseconds>" just before the
 * program first looks at ouf (the submission's output). A program that failed with no "read"
 * record had read none of the output: its failure is the jury's (docs/design/4-verdicts.md §4.5).
 * The submission never sees the secret, so it cannot write a record; nor can it keep one from being
 * written, since the "read" record is written before the first byte of its output is read (and
 * the program ends, as a FAIL, if it cannot be written).
 */
#ifndef JUDGE_TESTLIB_H
#define JUDGE_TESTLIB_H

// Everything testlib brings in: checkers written for it use these without including them.
#include <algorithm>
#include <bitset>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define I64 "%lld"
#define U64 "%llu"

#define LF ((char)10)
#define CR ((char)13)
#define TAB ((char)9)
#define SPACE ((char)' ')
#define EOFC (255)

#if defined(__GNUC__)
#define JUDGE_TESTLIB_PRINTF(format_index, first_argument) \
    __attribute__((format(printf, format_index, first_argument)))
#else
#define JUDGE_TESTLIB_PRINTF(format_index, first_argument)
#endif

enum TMode { _input, _output, _answer };

enum TResult {
    _ok = 0,
    _wa = 1,
    _pe = 2,
    _fail = 3,
    _dirt = 4,
    _points = 5,
    _unexpected_eof = 8,
    _partially = 16
};

#define _pc(exitCode) (TResult(_partially + (exitCode)))

// ------------------------------------------------------------------------------- internals

namespace judge_testlib {

// Trivially destructible on purpose: the end-of-program check reads it while the program's
// static objects are being destroyed.
struct State {
    bool registered;
    bool quitCalled;
    bool checkAtEnd;
    bool inEndCheck;
    bool hasTestCase;
    int testCase;
    bool testCaseSeen;
    bool zeroBasedTestCases;
    bool interactor;
};

inline State &state() {
    static State s = {false, false, true, false, false, -1, false, false, false};
    return s;
}

// The records the judge reads (see the top of this file). Trivially destructible, as State.
struct Marks {
    int fd;           // a copy of stderr made at registration: the program may close fd 2
    bool outputRead;  // the program has looked at ouf
    char secret[72];
};

inline Marks &marks() {
    static Marks m = {-1, false, {0}};
    return m;
}

inline bool writeMark(const char *text, size_t length) {
    while (length > 0) {
        ssize_t written = ::write(marks().fd, text, length);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return false;
        text += written;
        length -= static_cast<size_t>(written);
    }
    return true;
}

// At registration: takes the judge's secret (out of the environment, so that nothing the
// program starts inherits it) and writes the "begin" record. No secret, no records.
inline void beginMarks() {
    const char *given = std::getenv("JUDGE_TESTLIB_MARK");
    if (given == nullptr)
        return;
    std::string secret(given);
    unsetenv("JUDGE_TESTLIB_MARK");
    Marks &m = marks();
    if (m.fd >= 0 || secret.empty() || secret.size() > 64 ||
        secret.find_first_not_of("0123456789abcdef") != std::string::npos)
        return;
    int fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    if (fd < 0)
        return;
    std::memcpy(m.secret, secret.c_str(), secret.size() + 1);
    m.fd = fd;
    std::string record = "JUDGE-MARK " + secret + " begin\n";
    if (!writeMark(record.c_str(), record.size())) {
        ::close(fd);
        m.fd = -1;
    }
}

// Before the program's first look at ouf: the "read" record with the CPU time it has used. A
// record that cannot be written ends the program before it reads anything.
inline void noteOutputRead() {
    Marks &m = marks();
    if (m.outputRead)
        return;
    m.outputRead = true;
    if (m.fd < 0)
        return;
    long long micros = 0;
    struct timespec cpu;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu) == 0)
        micros = static_cast<long long>(cpu.tv_sec) * 1000000LL + cpu.tv_nsec / 1000;
    char record[128];
    int length = std::snprintf(record, sizeof record, "JUDGE-MARK %s read %lld\n", m.secret, micros);
    if (length <= 0 || static_cast<size_t>(length) >= sizeof record ||
        !writeMark(record, static_cast<size_t>(length))) {
        std::fputs("FAIL the judge's stream record could not be written\n", stderr);
        std::_Exit(3);
    }
}

const int kNoIndex = INT_MAX;
const size_t kMaxReadManySize = 100000000;

// A message carries at most one note between these two characters ("... (test case 3,
// answer.txt)"); later notes join it, and the characters are printed as parentheses.
const char kNoteOpen = '\x0b';
const char kNoteClose = '\x11';

inline std::string vformat(const char *format, va_list args) {
    va_list copy;
    va_copy(copy, args);
    int length = std::vsnprintf(nullptr, 0, format, copy);
    va_end(copy);
    if (length <= 0)
        return std::string();
    std::vector<char> buffer(static_cast<size_t>(length) + 1);
    std::vsnprintf(buffer.data(), buffer.size(), format, args);
    return std::string(buffer.data());  // up to a NUL, as testlib's messages are
}

JUDGE_TESTLIB_PRINTF(1, 2)
inline std::string formatted(const char *format, ...) {
    va_list args;
    va_start(args, format);
    std::string text = vformat(format, args);
    va_end(args);
    return text;
}

// For format(): its format string is the caller's, so it cannot carry the printf attribute.
inline std::string formattedUnchecked(const char *format, ...) {
    va_list args;
    va_start(args, format);
    std::string text = vformat(format, args);
    va_end(args);
    return text;
}

inline bool isBlank(char c) {
    return c == LF || c == CR || c == SPACE || c == TAB;
}

inline bool findNote(const std::string &message, size_t &open, size_t &close) {
    open = message.find(kNoteOpen);
    close = message.find(kNoteClose);
    return open != std::string::npos && close != std::string::npos && open < close &&
           message.find(kNoteOpen, open + 1) == std::string::npos &&
           message.find(kNoteClose, close + 1) == std::string::npos;
}

inline std::string withNote(const std::string &message, const std::string &note) {
    size_t open, close;
    if (!findNote(message, open, close))
        return message + " " + kNoteOpen + note + kNoteClose;
    size_t found = message.find(note, open);
    if (found != std::string::npos && found < close)
        return message;
    return message.substr(0, close) + ", " + note + message.substr(close);
}

inline std::string printable(std::string message) {
    size_t open, close;
    if (findNote(message, open, close)) {
        message[open] = '(';
        message[close] = ')';
    }
    return message;
}

template <typename T>
std::string decimalText(const T &value, std::true_type) {
    if (std::is_signed<T>::value)
        return std::to_string(static_cast<long long>(value));
    return std::to_string(static_cast<unsigned long long>(value));
}

// What `stream << value >> word` gives: the first word of the streamed value.
template <typename T>
std::string decimalText(const T &value, std::false_type) {
    std::ostringstream out;
    out << value;
    std::istringstream in(out.str());
    std::string word;
    in >> word;
    return word;
}

// Range bounds in messages: 1000000000 is shown as 10^9, 2000000000 as 2*10^9.
template <typename T>
std::string boundText(T value) {
    if (value == 0)
        return "0";
    T mantissa = value;
    int zeros = 0;
    while (mantissa % 10 == 0) {
        mantissa /= 10;
        zeros++;
    }
    if (zeros < 7)
        return decimalText(value, std::true_type());
    std::string power = "10^" + std::to_string(zeros);
    if (mantissa == 1)
        return power;
    if (std::is_signed<T>::value && mantissa == T(0) - 1)
        return "-" + power;
    return decimalText(mantissa, std::true_type()) + "*" + power;
}

inline std::string boundText(double value) {
    return decimalText(value, std::false_type());
}

// Fixed notation without the trailing zeros, "1.0" rather than "1.".
inline std::string shortFixed(double value, const char *format) {
    std::string text = formatted(format, value);
    if (text.find('.') != std::string::npos) {
        while (!text.empty() && text.back() == '0')
            text.pop_back();
        if (!text.empty() && text.back() == '.')
            text += '0';
    }
    return text;
}

inline bool isInfinite(double value) {
    return value > 1E300 || value < -1E300;
}

inline bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

// testlib's integer syntax: at most 20 characters, an optional minus, digits, no leading zero
// (so no "-0" or "007") and within the type's range.
inline bool parseSigned(const std::string &text, long long &value) {
    size_t length = text.size();
    if (length == 0 || length > 20)
        return false;
    size_t first = (length > 1 && text[0] == '-') ? 1 : 0;
    for (size_t i = first; i < length; i++)
        if (!isDigit(text[i]))
            return false;
    if (text[first] == '0' && (first == 1 || length > 1))
        return false;
    bool negative = first == 1;
    unsigned long long magnitude = 0;
    const unsigned long long limit = negative ? 9223372036854775808ULL : 9223372036854775807ULL;
    for (size_t i = first; i < length; i++) {
        unsigned long long digit = static_cast<unsigned long long>(text[i] - '0');
        if (magnitude > (limit - digit) / 10)
            return false;
        magnitude = magnitude * 10 + digit;
    }
    value = negative ? static_cast<long long>(0ULL - magnitude) : static_cast<long long>(magnitude);
    return true;
}

inline bool parseUnsigned(const std::string &text, unsigned long long &value) {
    size_t length = text.size();
    if (length == 0 || length > 20 || (length > 1 && text[0] == '0'))
        return false;
    unsigned long long result = 0;
    for (size_t i = 0; i < length; i++) {
        if (!isDigit(text[i]))
            return false;
        unsigned long long digit = static_cast<unsigned long long>(text[i] - '0');
        if (result > (ULLONG_MAX - digit) / 10)
            return false;
        result = result * 10 + digit;
    }
    value = result;
    return true;
}

// How far scanf("%lf") reads a number: testlib converts with it, and glibc's scanf takes an
// exponent mark, and a sign right after it, before it knows whether digits follow.
inline size_t scanfNumberLength(const std::string &text) {
    size_t i = 0;
    if (i < text.size() && (text[i] == '+' || text[i] == '-'))
        i++;
    bool digits = false, exponent = false, point = false;
    for (; i < text.size(); i++) {
        char c = text[i];
        bool afterExponentMark = i > 0 && (text[i - 1] == 'e' || text[i - 1] == 'E');
        if (isDigit(c))
            digits = true;
        else if ((c == '+' || c == '-') && exponent && afterExponentMark)
            continue;
        else if ((c == 'e' || c == 'E') && digits && !exponent)
            exponent = point = true;
        else if (c == '.' && !point)
            point = true;
        else
            break;
    }
    return i;
}

// A decimal number made of [0-9.eE+-] only (no "inf", "nan" or hex), read whole by scanf;
// its value is that of its longest prefix that is a number: "1e+" is 1, as in testlib.
inline bool parseDouble(const std::string &text, double &value) {
    for (size_t i = 0; i < text.size(); i++) {
        char c = text[i];
        if (!isDigit(c) && c != '.' && c != 'e' && c != 'E' && c != '-' && c != '+')
            return false;
    }
    if (text.empty() || scanfNumberLength(text) != text.size())
        return false;
    char *end = nullptr;
    value = std::strtod(text.c_str(), &end);
    return end != text.c_str() && !std::isnan(value);
}

// --------------------------------------------------------------------- testlib's patterns
//
// Not regular expressions: a pattern is a chain of items, each a character or a [set] with an
// optional count ({n}, {n,m}, ?, *, +), matched greedily and never given back; '|' splits the
// pattern into alternatives and a parenthesised group may only end a chain. Unescaped spaces
// are ignored, a backslash escapes the next character.

struct PatternItem {
    std::bitset<256> characters;
    int least;
    int most;
};

typedef std::vector<PatternItem> PatternChain;

class PatternParser {
public:
    explicit PatternParser(const std::string &source) {
        for (size_t i = 0; i < source.size(); i++) {
            bool escaped = source[i] == '\\';
            if (!escaped && source[i] == ' ')
                continue;
            Symbol symbol;
            symbol.offset = text_.size();
            symbol.escaped = escaped;
            if (escaped) {
                text_ += source[i++];
                // A final lone backslash escapes the string's terminating NUL.
                symbol.value = i < source.size() ? source[i] : '\0';
                if (i < source.size())
                    text_ += source[i];
            } else {
                symbol.value = source[i];
                text_ += source[i];
            }
            symbols_.push_back(symbol);
        }
    }

    std::vector<PatternChain> parse() const {
        return parsePart(0, symbols_.size());
    }

private:
    struct Symbol {
        char value;
        bool escaped;
        size_t offset;
    };

    std::string text_;
    std::vector<Symbol> symbols_;

    bool is(size_t at, size_t end, char c) const {
        return at < end && !symbols_[at].escaped && symbols_[at].value == c;
    }

    size_t offsetOf(size_t at) const {
        return at < symbols_.size() ? symbols_[at].offset : text_.size();
    }

    [[noreturn]] void illegal(size_t begin, size_t end) const;

    std::vector<PatternChain> parsePart(size_t begin, size_t end) const {
        int depth = 0;
        size_t firstClose = end;
        std::vector<size_t> bars;
        for (size_t i = begin; i < end; i++) {
            if (is(i, end, '(')) {
                depth++;
                continue;
            }
            if (is(i, end, ')')) {
                depth--;
                if (depth == 0 && firstClose == end)
                    firstClose = i;
                continue;
            }
            if (depth < 0)
                illegal(begin, end);
            if (depth == 0 && is(i, end, '|'))
                bars.push_back(i);
        }
        if (depth != 0)
            illegal(begin, end);

        if (bars.empty() && end > begin && firstClose == end - 1 && is(begin, end, '('))
            return parsePart(begin + 1, end - 1);

        std::vector<PatternChain> chains;
        if (!bars.empty()) {
            bars.push_back(end);
            size_t from = begin;
            for (size_t i = 0; i < bars.size(); i++) {
                std::vector<PatternChain> alternative = parsePart(from, bars[i]);
                chains.insert(chains.end(), alternative.begin(), alternative.end());
                from = bars[i] + 1;
            }
            return chains;
        }

        size_t at = begin;
        PatternItem item;
        item.characters = parseCharacters(at, begin, end);
        parseCount(at, begin, end, item.least, item.most);
        if (at < end)
            chains = parsePart(at, end);
        else
            chains.push_back(PatternChain());
        for (size_t i = 0; i < chains.size(); i++)
            chains[i].insert(chains[i].begin(), item);
        return chains;
    }

    static void addRange(std::bitset<256> &set, char from, char to) {
        for (int c = static_cast<signed char>(from); c <= static_cast<signed char>(to); c++)
            set.set(static_cast<unsigned char>(c));
    }

    std::bitset<256> parseCharacters(size_t &at, size_t begin, size_t end) const {
        std::bitset<256> set;
        if (at >= end)
            illegal(begin, end);
        if (!is(at, end, '[')) {
            set.set(static_cast<unsigned char>(symbols_[at++].value));
            return set;
        }
        at++;
        bool negated = is(at, end, '^');
        if (negated)
            at++;
        bool pending = false;
        char previous = 0;
        while (at < end && !is(at, end, ']')) {
            if (is(at, end, '-') && pending) {
                at++;
                // A '-' before the closing bracket, or before the part's last character, is
                // itself a member.
                if ((at < end && offsetOf(at) + 1 == offsetOf(end)) || is(at, end, ']')) {
                    set.set(static_cast<unsigned char>(previous));
                    previous = '-';
                    continue;
                }
                if (at >= end)
                    illegal(begin, end);
                char last = symbols_[at++].value;
                if (static_cast<signed char>(previous) > static_cast<signed char>(last))
                    illegal(begin, end);
                addRange(set, previous, last);
                pending = false;
            } else {
                if (pending)
                    set.set(static_cast<unsigned char>(previous));
                previous = symbols_[at++].value;
                pending = true;
            }
        }
        if (pending)
            set.set(static_cast<unsigned char>(previous));
        if (!is(at, end, ']'))
            illegal(begin, end);
        at++;
        if (negated) {
            set.flip();
            set.reset(255);  // testlib's negated sets are drawn from the codes 0..254
        }
        return set;
    }

    void parseCount(size_t &at, size_t begin, size_t end, int &least, int &most) const {
        least = most = 1;
        if (is(at, end, '?')) {
            least = 0;
            at++;
        } else if (is(at, end, '*')) {
            least = 0;
            most = INT_MAX;
            at++;
        } else if (is(at, end, '+')) {
            most = INT_MAX;
            at++;
        } else if (is(at, end, '{')) {
            at++;
            std::vector<std::string> parts;
            std::string part;
            while (at < end && !is(at, end, '}')) {
                if (is(at, end, ',')) {
                    parts.push_back(part);
                    part.clear();
                } else {
                    part += symbols_[at].value;
                }
                at++;
            }
            // An empty last part is dropped: "{3,}" means exactly 3, as in testlib.
            if (!part.empty())
                parts.push_back(part);
            if (!is(at, end, '}') || parts.empty() || parts.size() > 2)
                illegal(begin, end);
            at++;
            int numbers[2] = {0, 0};
            for (size_t i = 0; i < parts.size(); i++) {
                const char *digits = parts[i].c_str();
                char *stop = nullptr;
                long number = std::strtol(digits, &stop, 10);
                if (parts[i].empty() || stop == digits)
                    illegal(begin, end);
                numbers[i] = static_cast<int>(number);
            }
            least = numbers[0];
            most = parts.size() == 2 ? numbers[1] : numbers[0];
            if (least > most)
                illegal(begin, end);
        }
    }
};

}  // namespace judge_testlib

// ---------------------------------------------------------------------------- text helpers

inline std::string upperCase(std::string s) {
    for (size_t i = 0; i < s.size(); i++)
        if (s[i] >= 'a' && s[i] <= 'z')
            s[i] = static_cast<char>(s[i] - 'a' + 'A');
    return s;
}

inline std::string lowerCase(std::string s) {
    for (size_t i = 0; i < s.size(); i++)
        if (s[i] >= 'A' && s[i] <= 'Z')
            s[i] = static_cast<char>(s[i] - 'A' + 'a');
    return s;
}

inline std::string trim(const std::string &s) {
    size_t first = 0, last = s.size();
    while (first < last && judge_testlib::isBlank(s[first]))
        first++;
    while (last > first && judge_testlib::isBlank(s[last - 1]))
        last--;
    return s.substr(first, last - first);
}

// How testlib quotes data in a message: NULs as '~', long text as its ends around "...".
inline std::string compress(const std::string &s) {
    std::string text(s);
    std::replace(text.begin(), text.end(), '\0', '~');
    if (text.size() <= 64)
        return text;
    return text.substr(0, 30) + "..." + text.substr(text.size() - 31);
}

inline std::string englishEnding(int x) {
    x %= 100;
    if (x / 10 == 1)
        return "th";
    if (x % 10 == 1)
        return "st";
    if (x % 10 == 2)
        return "nd";
    if (x % 10 == 3)
        return "rd";
    return "th";
}

template <typename T>
std::string vtos(const T &value) {
    return judge_testlib::decimalText(value, std::is_integral<T>());
}

template <typename T>
std::string toString(const T &value) {
    return vtos(value);
}

// A template, so that with `using namespace std` a C++20 std::format does not win the call.
template <typename... Args>
std::string format(const char *fmt, Args &&...args) {
    return judge_testlib::formattedUnchecked(fmt, std::forward<Args>(args)...);
}

template <typename... Args>
std::string format(const std::string &fmt, Args &&...args) {
    return judge_testlib::formattedUnchecked(fmt.c_str(), std::forward<Args>(args)...);
}

template <typename Iterator, typename Separator>
std::string join(Iterator first, Iterator last, Separator separator) {
    std::ostringstream out;
    for (Iterator i = first; i != last; ++i) {
        if (i != first)
            out << separator;
        out << *i;
    }
    return out.str();
}

template <typename Iterator>
std::string join(Iterator first, Iterator last) {
    return join(first, last, ' ');
}

template <typename Collection, typename Separator>
std::string join(const Collection &collection, Separator separator) {
    return join(collection.begin(), collection.end(), separator);
}

template <typename Collection>
std::string join(const Collection &collection) {
    return join(collection, ' ');
}

inline std::vector<std::string> split(const std::string &s, const std::string &separators) {
    if (separators.empty())
        return std::vector<std::string>(1, s);
    std::vector<std::string> items(1);
    for (size_t i = 0; i < s.size(); i++) {
        if (separators.find(s[i]) != std::string::npos)
            items.push_back(std::string());
        else
            items.back() += s[i];
    }
    return items;
}

inline std::vector<std::string> split(const std::string &s, char separator) {
    return split(s, std::string(1, separator));
}

inline std::vector<std::string> tokenize(const std::string &s, const std::string &separators) {
    if (separators.empty())
        return std::vector<std::string>(1, s);
    std::vector<std::string> items;
    for (const std::string &item : split(s, separators))
        if (!item.empty())
            items.push_back(item);
    return items;
}

inline std::vector<std::string> tokenize(const std::string &s, char separator) {
    return tokenize(s, std::string(1, separator));
}

template <typename C>
bool isEof(C c) {
    return c == EOFC;
}

template <typename C>
bool isEoln(C c) {
    return c == LF || c == CR;
}

template <typename C>
bool isBlanks(C c) {
    return c == LF || c == CR || c == SPACE || c == TAB;
}

// True when `result` is within `maxDoubleError` of `expected`, absolutely or relatively. The
// bound is widened by 1E-15 so that a printed-and-reparsed answer is not refused for the last
// bit; beyond 1E300 a number counts as infinite.
inline bool doubleCompare(double expected, double result, double maxDoubleError) {
    double error = maxDoubleError + 1E-15;
    if (std::isnan(expected))
        return std::isnan(result);
    if (judge_testlib::isInfinite(expected))
        return judge_testlib::isInfinite(result) && (expected > 0) == (result > 0);
    if (std::isnan(result) || judge_testlib::isInfinite(result))
        return false;
    if (std::fabs(result - expected) <= error)
        return true;
    double low = expected * (1.0 - error), high = expected * (1.0 + error);
    if (low > high)
        std::swap(low, high);
    return result >= low && result <= high;
}

// The smaller of the absolute and the relative error (absolute only near zero). As in testlib,
// a zero error is -0.0 (its absolute value is `x > 0 ? x : -x`), which messages print as
// "-0.00000", and of two equal errors the relative one is taken.
inline double doubleDelta(double expected, double result) {
    double absolute = result - expected > 0 ? result - expected : -(result - expected);
    if (std::fabs(expected) <= 1E-9)
        return absolute;
    double ratio = absolute / expected;
    double relative = ratio > 0 ? ratio : -ratio;
    return absolute < relative ? absolute : relative;
}

// ---------------------------------------------------------------------------------- pattern

class pattern {
public:
    pattern(std::string source) : source_(source), chains_(judge_testlib::PatternParser(source).parse()) {}

    bool matches(const std::string &s) const {
        for (size_t i = 0; i < chains_.size(); i++)
            if (chainMatches(chains_[i], s))
                return true;
        return false;
    }

    std::string src() const {
        return source_;
    }

private:
    std::string source_;
    std::vector<judge_testlib::PatternChain> chains_;

    static bool chainMatches(const judge_testlib::PatternChain &chain, const std::string &s) {
        size_t at = 0;
        for (size_t i = 0; i < chain.size(); i++) {
            const judge_testlib::PatternItem &item = chain[i];
            if (item.most <= 0)
                continue;
            size_t run = 0;
            while (at + run < s.size() && item.characters[static_cast<unsigned char>(s[at + run])])
                run++;
            if (static_cast<long long>(run) < item.least)
                return false;
            at += std::min(run, static_cast<size_t>(item.most));
        }
        return at == s.size();
    }
};

// -------------------------------------------------------------------------------- InStream

struct InStream {
    InStream() : mode(_input), strict(false) {}

    // A stream over `content` that reads and fails like `base`.
    InStream(const InStream &base, std::string content)
        : name("based on " + base.name), mode(base.mode), strict(base.strict), data_(content) {}

    InStream(const InStream &) = delete;
    InStream &operator=(const InStream &) = delete;

    std::string name;
    TMode mode;
    bool strict;  // validator-style reading: no blanks skipped, exact separators and EOLNs
    size_t maxFileSize = 128 * 1024 * 1024;
    size_t maxTokenLength = 32 * 1024 * 1024;
    size_t maxMessageLength = 32000;

    void init(const std::string &fileName, TMode streamMode);
    // A stream read from `fd` as its bytes arrive (an interactor's ouf is its stdin).
    void initStreaming(int fd, const std::string &streamName, TMode streamMode);
    void close();

    char curChar();
    char nextChar();
    char readChar();
    char readChar(char c);
    char readSpace();
    void skipChar();
    void unreadChar(char c);
    void skipBlanks();
    void skipBom();

    bool eof();
    bool seekEof();
    bool eoln();
    bool seekEoln();
    void readEoln();
    void readEof();
    void nextLine();

    std::string readWord();
    std::string readWord(const pattern &p, const std::string &variableName = "");
    std::string readWord(const std::string &ptrn, const std::string &variableName = "");
    std::string readToken();
    std::string readToken(const pattern &p, const std::string &variableName = "");
    std::string readToken(const std::string &ptrn, const std::string &variableName = "");
    void readWordTo(std::string &result);
    void readWordTo(std::string &result, const pattern &p, const std::string &variableName = "");
    void readWordTo(std::string &result, const std::string &ptrn, const std::string &variableName = "");
    void readTokenTo(std::string &result);
    void readTokenTo(std::string &result, const pattern &p, const std::string &variableName = "");
    void readTokenTo(std::string &result, const std::string &ptrn, const std::string &variableName = "");
    std::vector<std::string> readWords(int size, int indexBase = 1);
    std::vector<std::string> readWords(int size, const pattern &p, const std::string &variablesName = "",
                                       int indexBase = 1);
    std::vector<std::string> readWords(int size, const std::string &ptrn, const std::string &variablesName = "",
                                       int indexBase = 1);
    std::vector<std::string> readTokens(int size, int indexBase = 1);
    std::vector<std::string> readTokens(int size, const pattern &p, const std::string &variablesName = "",
                                        int indexBase = 1);
    std::vector<std::string> readTokens(int size, const std::string &ptrn, const std::string &variablesName = "",
                                        int indexBase = 1);

    long long readLong();
    long long readLong(long long minv, long long maxv, const std::string &variableName = "");
    unsigned long long readLong(unsigned long long minv, unsigned long long maxv,
                                const std::string &variableName = "");
    unsigned long long readUnsignedLong();
    unsigned long long readUnsignedLong(unsigned long long minv, unsigned long long maxv,
                                        const std::string &variableName = "");
    int readInt();
    int readInt(int minv, int maxv, const std::string &variableName = "");
    int readInteger();
    int readInteger(int minv, int maxv, const std::string &variableName = "");
    double readReal();
    double readReal(double minv, double maxv, const std::string &variableName = "");
    double readDouble();
    double readDouble(double minv, double maxv, const std::string &variableName = "");
    double readStrictReal(double minv, double maxv, int minAfterPointDigitCount, int maxAfterPointDigitCount,
                          const std::string &variableName = "");
    double readStrictDouble(double minv, double maxv, int minAfterPointDigitCount, int maxAfterPointDigitCount,
                            const std::string &variableName = "");

    std::vector<long long> readLongs(int size, int indexBase = 1);
    std::vector<long long> readLongs(int size, long long minv, long long maxv, const std::string &variablesName = "",
                                     int indexBase = 1);
    std::vector<unsigned long long> readLongs(int size, unsigned long long minv, unsigned long long maxv,
                                              const std::string &variablesName = "", int indexBase = 1);
    std::vector<unsigned long long> readUnsignedLongs(int size, int indexBase = 1);
    std::vector<unsigned long long> readUnsignedLongs(int size, unsigned long long minv, unsigned long long maxv,
                                                      const std::string &variablesName = "", int indexBase = 1);
    std::vector<int> readInts(int size, int indexBase = 1);
    std::vector<int> readInts(int size, int minv, int maxv, const std::string &variablesName = "",
                              int indexBase = 1);
    std::vector<int> readIntegers(int size, int indexBase = 1);
    std::vector<int> readIntegers(int size, int minv, int maxv, const std::string &variablesName = "",
                                  int indexBase = 1);
    std::vector<double> readReals(int size, int indexBase = 1);
    std::vector<double> readReals(int size, double minv, double maxv, const std::string &variablesName = "",
                                  int indexBase = 1);
    std::vector<double> readDoubles(int size, int indexBase = 1);
    std::vector<double> readDoubles(int size, double minv, double maxv, const std::string &variablesName = "",
                                    int indexBase = 1);
    std::vector<double> readStrictReals(int size, double minv, double maxv, int minAfterPointDigitCount,
                                        int maxAfterPointDigitCount, const std::string &variablesName = "",
                                        int indexBase = 1);
    std::vector<double> readStrictDoubles(int size, double minv, double maxv, int minAfterPointDigitCount,
                                          int maxAfterPointDigitCount, const std::string &variablesName = "",
                                          int indexBase = 1);

    std::string readLine();
    std::string readLine(const pattern &p, const std::string &variableName = "");
    std::string readLine(const std::string &ptrn, const std::string &variableName = "");
    std::string readString();
    std::string readString(const pattern &p, const std::string &variableName = "");
    std::string readString(const std::string &ptrn, const std::string &variableName = "");
    void readLineTo(std::string &result);
    void readLineTo(std::string &result, const pattern &p, const std::string &variableName = "");
    void readLineTo(std::string &result, const std::string &ptrn, const std::string &variableName = "");
    void readStringTo(std::string &result);
    void readStringTo(std::string &result, const pattern &p, const std::string &variableName = "");
    void readStringTo(std::string &result, const std::string &ptrn, const std::string &variableName = "");
    std::vector<std::string> readLines(int size, int indexBase = 1);
    std::vector<std::string> readLines(int size, const pattern &p, const std::string &variablesName = "",
                                       int indexBase = 1);
    std::vector<std::string> readLines(int size, const std::string &ptrn, const std::string &variablesName = "",
                                       int indexBase = 1);
    std::vector<std::string> readStrings(int size, int indexBase = 1);
    std::vector<std::string> readStrings(int size, const pattern &p, const std::string &variablesName = "",
                                         int indexBase = 1);
    std::vector<std::string> readStrings(int size, const std::string &ptrn, const std::string &variablesName = "",
                                         int indexBase = 1);

    // On ouf these end the check with the given result; on inf and ans every result but
    // _fail becomes FAIL, with the file's name noted: the jury's data is at fault.
    [[noreturn]] void quit(TResult result, const char *msg);
    [[noreturn]] void quits(TResult result, std::string msg);
    [[noreturn]] void quitf(TResult result, const char *msg, ...) JUDGE_TESTLIB_PRINTF(3, 4);
    void quitif(bool condition, TResult result, const char *msg, ...) JUDGE_TESTLIB_PRINTF(4, 5);
    void ensuref(bool cond, const char *format, ...) JUDGE_TESTLIB_PRINTF(3, 4);
    void judge_testlib_ensure(bool cond, const std::string &message);  // stream.ensure(cond)
    // ouf, once registered: the first look at its bytes writes the "read" record first.
    void judge_testlib_watch() { watched_ = true; }

private:
    std::string data_;
    size_t pos_ = 0;
    int readManyIndex_ = judge_testlib::kNoIndex;
    int streamFd_ = -1;  // >= 0 while more bytes may arrive from a streaming source
    bool watched_ = false;

    // Every look at the stream's bytes passes here (or through skipBom).
    void look() {
        if (watched_) {
            watched_ = false;
            judge_testlib::noteOutputRead();
        }
    }

    // Whether the byte at `index` exists, waiting for it on a streaming source.
    bool have(size_t index) {
        look();
        while (index >= data_.size() && streamFd_ >= 0)
            pull();
        return index < data_.size();
    }

    bool atEnd() {
        return !have(pos_);
    }

    void pull();

    void checkedToken(std::string &result, const pattern &p, const std::string &variableName);
    void checkedLine(std::string &result, const pattern &p, const std::string &variableName);
    [[noreturn]] void mismatch(const char *what, const char *named, const std::string &value, const pattern &p,
                               const std::string &variableName);
    template <typename T>
    T inRange(const char *what, T value, T minv, T maxv, const std::string &variableName);
    template <typename T, typename ReadOne>
    std::vector<T> readMany(const char *function, int size, int indexBase, bool separated, ReadOne readOne);
};

InStream inf;
InStream ouf;
InStream ans;
// An interactor's output file: what it writes here is the checker's output afterwards.
std::fstream tout;

// ------------------------------------------------------------------------------ quitting

namespace judge_testlib {

[[noreturn]] inline void finish(TResult result, const std::string &message) {
    int exitCode;
    std::string prefix;
    switch (result) {
    case _ok: prefix = "ok "; exitCode = 0; break;
    case _wa: prefix = "wrong answer "; exitCode = 1; break;
    case _pe: prefix = "wrong output format "; exitCode = 2; break;
    case _dirt: prefix = "wrong output format "; exitCode = 2; break;
    case _fail: prefix = "FAIL "; exitCode = 3; break;
    case _points: prefix = "points "; exitCode = 7; break;
    default:
        if (result < _partially)
            ouf.quit(_fail, "What is the code ??? ");
        prefix = formatted("partially correct (%d) ", result - _partially);
        exitCode = result - _partially;
    }
    std::string line = prefix + printable(message) + "\n";
    std::fputs(line.c_str(), stderr);
    if (tout.is_open())
        tout.close();
    std::cout.flush();
    std::fflush(nullptr);
    // Called from the end-of-program check, exit() would be a second exit.
    if (state().inEndCheck)
        std::_Exit(exitCode);
    std::exit(exitCode);
}

inline double checkedPoints(double points) {
    if (std::isnan(points))
        ouf.quit(_fail, "Parameter 'points' can't be nan");
    if (isInfinite(points))
        ouf.quit(_fail, "Parameter 'points' can't be infinite");
    if (points < -1E-8)
        ouf.quit(_fail, "Parameter 'points' can't be negative");
    if (points > 1E6 + 1E-8)
        ouf.quit(_fail, "Parameter 'points' can't be greater than 1E6");
    if (points <= 0)
        return 0.0;  // a tiny negative score, or -0.0, is printed as 0
    return std::min(points, 1E6);
}

[[noreturn]] inline void quitWithPoints(const std::string &points, const std::string &message) {
    std::string text = message.empty() ? points : points + " " + message;
    ouf.quit(_points, text.c_str());
}

inline void PatternParser::illegal(size_t begin, size_t end) const {
    std::string part = text_.substr(offsetOf(begin), offsetOf(end) - offsetOf(begin));
    ouf.quit(_fail, ("pattern: Illegal pattern (or part) \"" + part + "\"").c_str());
}

}  // namespace judge_testlib

[[noreturn]] inline void quit(TResult result, const char *msg) {
    ouf.quit(result, msg);
}

[[noreturn]] inline void quit(TResult result, const std::string &msg) {
    ouf.quit(result, msg.c_str());
}

[[noreturn]] JUDGE_TESTLIB_PRINTF(2, 3) inline void quitf(TResult result, const char *format, ...) {
    va_list args;
    va_start(args, format);
    std::string message = judge_testlib::vformat(format, args);
    va_end(args);
    ouf.quit(result, message.c_str());
}

JUDGE_TESTLIB_PRINTF(3, 4)
inline void quitif(bool condition, TResult result, const char *format, ...) {
    if (!condition)
        return;
    va_list args;
    va_start(args, format);
    std::string message = judge_testlib::vformat(format, args);
    va_end(args);
    ouf.quit(result, message.c_str());
}

[[noreturn]] inline void quitp(double points, const std::string &message = "") {
    judge_testlib::quitWithPoints(judge_testlib::shortFixed(judge_testlib::checkedPoints(points), "%.10f"),
                                  message);
}

[[noreturn]] inline void quitp(float points, const std::string &message = "") {
    quitp(static_cast<double>(points), message);
}

[[noreturn]] inline void quitp(long double points, const std::string &message = "") {
    quitp(static_cast<double>(points), message);
}

[[noreturn]] inline void quitp(int points, const std::string &message = "") {
    judge_testlib::checkedPoints(points);
    judge_testlib::quitWithPoints(std::to_string(points), message);
}

template <typename F>
[[noreturn]] JUDGE_TESTLIB_PRINTF(2, 3) void quitp(F points, const char *format, ...) {
    va_list args;
    va_start(args, format);
    std::string message = judge_testlib::vformat(format, args);
    va_end(args);
    quitp(points, message);
}

[[noreturn]] inline void quitpi(const std::string &pointsInfo, const std::string &message = "") {
    if (pointsInfo.find(' ') != std::string::npos)
        quit(_fail, "Parameter 'points_info' can't contain spaces");
    judge_testlib::quitWithPoints("points_info=" + pointsInfo, message);
}

namespace judge_testlib {

inline std::string expectedText(double value) {
    return shortFixed(value, "%.12f");
}

inline std::string expectedText(float value) {
    return expectedText(static_cast<double>(value));
}

inline std::string expectedText(long double value) {
    return expectedText(static_cast<double>(value));
}

inline std::string expectedText(const std::string &value) {
    return value;
}

inline std::string expectedText(const char *value) {
    return value;
}

template <typename T>
std::string expectedText(const T &value) {
    return vtos(value);
}

}  // namespace judge_testlib

template <typename T>
[[noreturn]] void expectedButFound(TResult result, T expected, T found) {
    quit(result, "expected '" + compress(judge_testlib::expectedText(expected)) + "', but found '" +
                     compress(judge_testlib::expectedText(found)) + "'");
}

template <typename T>
[[noreturn]] JUDGE_TESTLIB_PRINTF(4, 5) void expectedButFound(TResult result, T expected, T found,
                                                              const char *prependFormat, ...) {
    va_list args;
    va_start(args, prependFormat);
    std::string prepend = judge_testlib::vformat(prependFormat, args);
    va_end(args);
    if (prepend.empty())
        expectedButFound(result, expected, found);
    quit(result, compress(prepend) + ": expected '" + compress(judge_testlib::expectedText(expected)) +
                     "', but found '" + compress(judge_testlib::expectedText(found)) + "'");
}

// Messages then carry the test case: "(test case 3)", or "(3 test cases)" on success.
inline void setTestCase(int testCase) {
    judge_testlib::State &s = judge_testlib::state();
    if (!s.testCaseSeen && testCase == 0)
        s.zeroBasedTestCases = true;
    s.testCaseSeen = true;
    s.hasTestCase = true;
    s.testCase = s.zeroBasedTestCases ? testCase + 1 : testCase;
}

inline void unsetTestCase() {
    judge_testlib::state().hasTestCase = false;
    judge_testlib::state().testCase = -1;
}

// The judge shows no checker name; the call stays valid.
JUDGE_TESTLIB_PRINTF(1, 2)
inline void setName(const char *, ...) {}

inline void disableFinalizeGuard() {
    judge_testlib::state().checkAtEnd = false;
}

inline void judge_testlib_ensure(bool cond, const std::string &message) {
    if (!cond)
        quit(_fail, message);
}

#define ensure(cond) judge_testlib_ensure((cond), "Condition failed: \"" #cond "\"")

JUDGE_TESTLIB_PRINTF(2, 3)
inline void ensuref(bool cond, const char *format, ...) {
    if (cond)
        return;
    va_list args;
    va_start(args, format);
    std::string message = judge_testlib::vformat(format, args);
    va_end(args);
    quit(_fail, message);
}

// ------------------------------------------------------------------ InStream: the streams

inline void InStream::init(const std::string &fileName, TMode streamMode) {
    name = fileName;
    mode = streamMode;
    data_.clear();
    pos_ = 0;
    struct stat info;
    if (stat(fileName.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
        static_cast<unsigned long long>(info.st_size) > maxFileSize)
        quitf(_pe, "File size exceeds %d bytes, size is %d", int(maxFileSize), int(info.st_size));
    std::FILE *file = std::fopen(fileName.c_str(), "rb");
    if (file == nullptr) {
        if (mode == _output)
            quit(_pe, ("Output file not found: \"" + name + "\"").c_str());
        if (mode == _answer)
            quit(_fail, ("Answer file not found: \"" + name + "\"").c_str());
        return;  // a missing input file reads as empty, as it mostly does in testlib
    }
    char buffer[1 << 16];
    size_t got;
    while ((got = std::fread(buffer, 1, sizeof buffer, file)) > 0)
        data_.append(buffer, got);
    std::fclose(file);
}

inline void InStream::initStreaming(int fd, const std::string &streamName, TMode streamMode) {
    name = streamName;
    mode = streamMode;
    data_.clear();
    pos_ = 0;
    streamFd_ = fd;
}

// Reads what has arrived, at least one byte, or notes the end. Bytes read past are dropped
// once all are consumed (one kept for unreadChar), so a long interaction holds little.
inline void InStream::pull() {
    char buffer[1 << 16];
    ssize_t got;
    do
        got = ::read(streamFd_, buffer, sizeof buffer);
    while (got < 0 && errno == EINTR);
    if (got <= 0) {
        streamFd_ = -1;
        return;
    }
    if (pos_ == data_.size() && pos_ > (1u << 20)) {
        data_.erase(0, pos_ - 1);
        pos_ = 1;
    }
    data_.append(buffer, static_cast<size_t>(got));
}

inline void InStream::close() {
    data_.clear();
    pos_ = 0;
    streamFd_ = -1;
}

// -------------------------------------------------------------- InStream: characters

// At the end of the stream the "character" is EOFC seen as a char, '\xff'.
inline char InStream::curChar() {
    return atEnd() ? static_cast<char>(EOFC) : data_[pos_];
}

inline char InStream::nextChar() {
    return atEnd() ? static_cast<char>(EOFC) : data_[pos_++];
}

inline char InStream::readChar() {
    return nextChar();
}

inline char InStream::readChar(char c) {
    char found = nextChar();
    if (found == c)
        return found;
    if (found == LF || found == CR)
        quitf(_pe, "Unexpected character #%d, but '%c' expected", int(found), c);
    quitf(_pe, "Unexpected character '%c', but '%c' expected", found, c);
}

inline char InStream::readSpace() {
    return readChar(' ');
}

inline void InStream::skipChar() {
    if (!atEnd())
        pos_++;
}

inline void InStream::unreadChar(char c) {
    if (pos_ > 0)
        data_[--pos_] = c;
}

inline void InStream::skipBlanks() {
    while (!atEnd() && judge_testlib::isBlank(data_[pos_]))
        pos_++;
}

inline void InStream::skipBom() {
    look();
    if (data_.compare(pos_, 3, "\xEF\xBB\xBF") == 0)
        pos_ += 3;
}

// ---------------------------------------------------------- InStream: ends of lines, files

// eof() looks at the very next byte: blanks before the end are not skipped; seekEof() skips
// them first.
inline bool InStream::eof() {
    return atEnd();
}

inline bool InStream::seekEof() {
    skipBlanks();
    return atEnd();
}

// Consumes an end of line when there is one: LF, or CR LF outside strict mode; the end of the
// file counts as one too, outside strict mode.
inline bool InStream::eoln() {
    if (atEnd())
        return !strict;
    if (data_[pos_] == LF) {
        pos_++;
        return true;
    }
    if (!strict && data_[pos_] == CR && have(pos_ + 1) && data_[pos_ + 1] == LF) {
        pos_ += 2;
        return true;
    }
    return false;
}

inline bool InStream::seekEoln() {
    while (!atEnd() && (data_[pos_] == SPACE || data_[pos_] == TAB))
        pos_++;
    return eoln();
}

inline void InStream::readEoln() {
    if (!eoln())
        quit(_pe, "Expected EOLN");
}

inline void InStream::readEof() {
    if (!eof())
        quit(_pe, "Expected EOF");
}

inline void InStream::nextLine() {
    readLine();
}

// ---------------------------------------------------------------------- InStream: tokens

inline void InStream::readWordTo(std::string &result) {
    if (!strict)
        skipBlanks();
    if (atEnd())
        quit(_unexpected_eof, "Unexpected end of file - token expected");
    if (judge_testlib::isBlank(data_[pos_]))
        quit(_pe, "Unexpected white-space - token expected");
    size_t end = pos_;
    while (have(end) && !judge_testlib::isBlank(data_[end]))
        end++;
    if (end - pos_ > maxTokenLength)
        quitf(_pe, "Length of token exceeds %d, token is '%s...'", int(maxTokenLength),
              compress(data_.substr(pos_, maxTokenLength + 1)).c_str());
    result.assign(data_, pos_, end - pos_);
    pos_ = end;
}

inline void InStream::mismatch(const char *what, const char *named, const std::string &value, const pattern &p,
                               const std::string &variableName) {
    std::string shown = "\"" + compress(value) + "\"";
    std::string tail = " doesn't correspond to pattern \"" + p.src() + "\"";
    std::string message;
    if (readManyIndex_ == judge_testlib::kNoIndex)
        message = variableName.empty() ? std::string(what) + " " + shown + tail
                                       : std::string(what) + named + "[name=" + variableName + "] equals to " +
                                             shown + "," + tail;
    else
        message = variableName.empty()
                      ? std::string(what) + " element [index=" + vtos(readManyIndex_) + "] equals to " + shown + tail
                      : std::string(what) + " element " + variableName + "[" + vtos(readManyIndex_) +
                            "] equals to " + shown + "," + tail;
    quit(_wa, message.c_str());
}

inline void InStream::checkedToken(std::string &result, const pattern &p, const std::string &variableName) {
    readWordTo(result);
    if (!p.matches(result))
        mismatch("Token", " parameter ", result, p, variableName);
}

inline std::string InStream::readWord() {
    std::string result;
    readWordTo(result);
    return result;
}

inline std::string InStream::readWord(const pattern &p, const std::string &variableName) {
    std::string result;
    checkedToken(result, p, variableName);
    return result;
}

inline std::string InStream::readWord(const std::string &ptrn, const std::string &variableName) {
    return readWord(pattern(ptrn), variableName);
}

inline std::string InStream::readToken() {
    return readWord();
}

inline std::string InStream::readToken(const pattern &p, const std::string &variableName) {
    return readWord(p, variableName);
}

inline std::string InStream::readToken(const std::string &ptrn, const std::string &variableName) {
    return readWord(pattern(ptrn), variableName);
}

inline void InStream::readWordTo(std::string &result, const pattern &p, const std::string &variableName) {
    checkedToken(result, p, variableName);
}

inline void InStream::readWordTo(std::string &result, const std::string &ptrn, const std::string &variableName) {
    checkedToken(result, pattern(ptrn), variableName);
}

inline void InStream::readTokenTo(std::string &result) {
    readWordTo(result);
}

inline void InStream::readTokenTo(std::string &result, const pattern &p, const std::string &variableName) {
    checkedToken(result, p, variableName);
}

inline void InStream::readTokenTo(std::string &result, const std::string &ptrn, const std::string &variableName) {
    checkedToken(result, pattern(ptrn), variableName);
}

template <typename T, typename ReadOne>
std::vector<T> InStream::readMany(const char *function, int size, int indexBase, bool separated, ReadOne readOne) {
    if (size < 0)
        quit(_fail, (std::string(function) + ": size should be non-negative.").c_str());
    if (static_cast<size_t>(size) > judge_testlib::kMaxReadManySize)
        quit(_fail, (std::string(function) + ": size should be at most 100000000.").c_str());
    std::vector<T> result;
    result.reserve(static_cast<size_t>(size));
    readManyIndex_ = indexBase;
    for (int i = 0; i < size; i++) {
        result.push_back(readOne());
        readManyIndex_++;
        if (strict && separated && i + 1 < size)
            readSpace();
    }
    readManyIndex_ = judge_testlib::kNoIndex;
    return result;
}

inline std::vector<std::string> InStream::readWords(int size, int indexBase) {
    return readMany<std::string>("readWords", size, indexBase, true, [this] { return readWord(); });
}

inline std::vector<std::string> InStream::readWords(int size, const pattern &p, const std::string &variablesName,
                                                    int indexBase) {
    return readMany<std::string>("readWords", size, indexBase, true,
                                 [&] { return readWord(p, variablesName); });
}

inline std::vector<std::string> InStream::readWords(int size, const std::string &ptrn,
                                                    const std::string &variablesName, int indexBase) {
    return readWords(size, pattern(ptrn), variablesName, indexBase);
}

inline std::vector<std::string> InStream::readTokens(int size, int indexBase) {
    return readMany<std::string>("readTokens", size, indexBase, true, [this] { return readWord(); });
}

inline std::vector<std::string> InStream::readTokens(int size, const pattern &p, const std::string &variablesName,
                                                     int indexBase) {
    return readMany<std::string>("readTokens", size, indexBase, true,
                                 [&] { return readWord(p, variablesName); });
}

inline std::vector<std::string> InStream::readTokens(int size, const std::string &ptrn,
                                                     const std::string &variablesName, int indexBase) {
    return readTokens(size, pattern(ptrn), variablesName, indexBase);
}

// ---------------------------------------------------------------------- InStream: numbers

// A malformed number is a presentation error; a well-formed one out of the asked range is a
// wrong answer.
template <typename T>
T InStream::inRange(const char *what, T value, T minv, T maxv, const std::string &variableName) {
    if (value >= minv && value <= maxv)
        return value;
    std::string range = "violates the range [" + judge_testlib::boundText(minv) + ", " +
                        judge_testlib::boundText(maxv) + "]";
    std::string shown = vtos(value);
    std::string message;
    if (readManyIndex_ == judge_testlib::kNoIndex)
        message = variableName.empty() ? std::string(what) + " " + shown + " " + range
                                       : std::string(what) + " parameter [name=" + variableName + "] equals to " +
                                             shown + ", " + range;
    else
        message = variableName.empty()
                      ? std::string(what) + " element [index=" + vtos(readManyIndex_) + "] equals to " + shown +
                            ", " + range
                      : std::string(what) + " element " + variableName + "[" + vtos(readManyIndex_) +
                            "] equals to " + shown + ", " + range;
    quit(_wa, message.c_str());
}

// Converting a token, as the readers do: a malformed number ends the check on `in` with a
// presentation error (a FAIL on inf and ans).
inline long long stringToLongLong(InStream &in, const char *buffer) {
    long long value = 0;
    if (!judge_testlib::parseSigned(buffer, value))
        in.quitf(_pe, "Expected integer, but \"%s\" found", compress(buffer).c_str());
    return value;
}

inline long long stringToLongLong(InStream &in, const std::string &buffer) {
    if (buffer.find('\0') != std::string::npos)
        in.quitf(_pe, "Expected integer, but \"%s\" found (it contains \\0)", compress(buffer).c_str());
    return stringToLongLong(in, buffer.c_str());
}

inline unsigned long long stringToUnsignedLongLong(InStream &in, const char *buffer) {
    unsigned long long value = 0;
    if (!judge_testlib::parseUnsigned(buffer, value))
        in.quitf(_pe, "Expected unsigned integer, but \"%s\" found", compress(buffer).c_str());
    return value;
}

inline unsigned long long stringToUnsignedLongLong(InStream &in, const std::string &buffer) {
    if (buffer.find('\0') != std::string::npos)
        in.quitf(_pe, "Expected unsigned integer, but \"%s\" found (it contains \\0)", compress(buffer).c_str());
    return stringToUnsignedLongLong(in, buffer.c_str());
}

inline double stringToDouble(InStream &in, const char *buffer) {
    double value = 0;
    if (!judge_testlib::parseDouble(buffer, value))
        in.quitf(_pe, "Expected double, but \"%s\" found", compress(buffer).c_str());
    return value;
}

inline double stringToDouble(InStream &in, const std::string &buffer) {
    if (buffer.find('\0') != std::string::npos)
        in.quitf(_pe, "Expected double, but \"%s\" found (it contains \\0)", compress(buffer).c_str());
    return stringToDouble(in, buffer.c_str());
}

// A plain decimal: optional minus, digits without a leading zero, then a point and between
// min and max digits (no point at all counts as zero digits).
inline double stringToStrictDouble(InStream &in, const char *buffer, int minAfterPointDigitCount,
                                   int maxAfterPointDigitCount) {
    if (minAfterPointDigitCount < 0)
        in.quit(_fail, "stringToStrictDouble: minAfterPointDigitCount should be non-negative.");
    if (minAfterPointDigitCount > maxAfterPointDigitCount)
        in.quit(_fail, "stringToStrictDouble: minAfterPointDigitCount should be less or equal to "
                       "maxAfterPointDigitCount.");
    std::string token(buffer);
    std::string shown = compress(token);
    size_t length = token.size();
    if (length == 0 || length > 1000 || (token[0] != '-' && !judge_testlib::isDigit(token[0])))
        in.quitf(_pe, "Expected strict double, but \"%s\" found", shown.c_str());
    size_t point = std::string::npos;
    for (size_t i = 1; i + 1 < length; i++) {
        bool isPoint = token[i] == '.';
        if ((isPoint && point != std::string::npos) || (!isPoint && !judge_testlib::isDigit(token[i])))
            in.quitf(_pe, "Expected strict double, but \"%s\" found", shown.c_str());
        if (isPoint)
            point = i;
    }
    if (!judge_testlib::isDigit(token[length - 1]))
        in.quitf(_pe, "Expected strict double, but \"%s\" found", shown.c_str());
    int afterPoint = point == std::string::npos ? 0 : static_cast<int>(length - point - 1);
    if (afterPoint < minAfterPointDigitCount || afterPoint > maxAfterPointDigitCount)
        in.quitf(_pe, "Expected strict double with number of digits after point in range [%d,%d], but \"%s\" found",
                 minAfterPointDigitCount, maxAfterPointDigitCount, shown.c_str());
    size_t firstDigit = token[0] == '-' ? 1 : 0;
    if (!judge_testlib::isDigit(token[firstDigit]) ||
        (token[firstDigit] == '0' && firstDigit + 1 < length && judge_testlib::isDigit(token[firstDigit + 1])))
        in.quitf(_pe, "Expected strict double, but \"%s\" found", shown.c_str());
    double value = std::strtod(token.c_str(), nullptr);
    if (std::isnan(value) || judge_testlib::isInfinite(value))
        in.quitf(_pe, "Expected double, but \"%s\" found", shown.c_str());
    if (token[0] == '-' && value >= 0)
        in.quitf(_pe, "Redundant minus in \"%s\" found", shown.c_str());
    return value;
}

inline double stringToStrictDouble(InStream &in, const std::string &buffer, int minAfterPointDigitCount,
                                   int maxAfterPointDigitCount) {
    if (buffer.find('\0') != std::string::npos)
        in.quitf(_pe, "Expected double, but \"%s\" found (it contains \\0)", compress(buffer).c_str());
    return stringToStrictDouble(in, buffer.c_str(), minAfterPointDigitCount, maxAfterPointDigitCount);
}

inline long long InStream::readLong() {
    if (!strict && seekEof())
        quit(_unexpected_eof, "Unexpected end of file - int64 expected");
    return stringToLongLong(*this, readWord());
}

inline long long InStream::readLong(long long minv, long long maxv, const std::string &variableName) {
    return inRange("Integer", readLong(), minv, maxv, variableName);
}

inline unsigned long long InStream::readLong(unsigned long long minv, unsigned long long maxv,
                                             const std::string &variableName) {
    return readUnsignedLong(minv, maxv, variableName);
}

inline unsigned long long InStream::readUnsignedLong() {
    if (!strict && seekEof())
        quit(_unexpected_eof, "Unexpected end of file - int64 expected");
    return stringToUnsignedLongLong(*this, readWord());
}

inline unsigned long long InStream::readUnsignedLong(unsigned long long minv, unsigned long long maxv,
                                                     const std::string &variableName) {
    return inRange("Unsigned integer", readUnsignedLong(), minv, maxv, variableName);
}

inline int InStream::readInt() {
    if (!strict && seekEof())
        quit(_unexpected_eof, "Unexpected end of file - int32 expected");
    std::string token = readWord();
    long long value = stringToLongLong(*this, token);
    if (value < INT_MIN || value > INT_MAX)
        quitf(_pe, "Expected int32, but \"%s\" found", compress(token).c_str());
    return static_cast<int>(value);
}

inline int InStream::readInt(int minv, int maxv, const std::string &variableName) {
    return static_cast<int>(inRange<long long>("Integer", readInt(), minv, maxv, variableName));
}

inline int InStream::readInteger() {
    return readInt();
}

inline int InStream::readInteger(int minv, int maxv, const std::string &variableName) {
    return readInt(minv, maxv, variableName);
}

inline double InStream::readReal() {
    if (!strict && seekEof())
        quit(_unexpected_eof, "Unexpected end of file - double expected");
    return stringToDouble(*this, readWord());
}

inline double InStream::readReal(double minv, double maxv, const std::string &variableName) {
    return inRange("Double", readReal(), minv, maxv, variableName);
}

inline double InStream::readDouble() {
    return readReal();
}

inline double InStream::readDouble(double minv, double maxv, const std::string &variableName) {
    return readReal(minv, maxv, variableName);
}

inline double InStream::readStrictReal(double minv, double maxv, int minAfterPointDigitCount,
                                       int maxAfterPointDigitCount, const std::string &variableName) {
    if (!strict && seekEof())
        quit(_unexpected_eof, "Unexpected end of file - strict double expected");
    double value = stringToStrictDouble(*this, readWord(), minAfterPointDigitCount, maxAfterPointDigitCount);
    return inRange("Strict double", value, minv, maxv, variableName);
}

inline double InStream::readStrictDouble(double minv, double maxv, int minAfterPointDigitCount,
                                         int maxAfterPointDigitCount, const std::string &variableName) {
    return readStrictReal(minv, maxv, minAfterPointDigitCount, maxAfterPointDigitCount, variableName);
}

inline std::vector<long long> InStream::readLongs(int size, int indexBase) {
    return readMany<long long>("readLongs", size, indexBase, true, [this] { return readLong(); });
}

inline std::vector<long long> InStream::readLongs(int size, long long minv, long long maxv,
                                                  const std::string &variablesName, int indexBase) {
    return readMany<long long>("readLongs", size, indexBase, true,
                               [&] { return readLong(minv, maxv, variablesName); });
}

inline std::vector<unsigned long long> InStream::readLongs(int size, unsigned long long minv,
                                                           unsigned long long maxv,
                                                           const std::string &variablesName, int indexBase) {
    return readUnsignedLongs(size, minv, maxv, variablesName, indexBase);
}

inline std::vector<unsigned long long> InStream::readUnsignedLongs(int size, int indexBase) {
    return readMany<unsigned long long>("readUnsignedLongs", size, indexBase, true,
                                        [this] { return readUnsignedLong(); });
}

inline std::vector<unsigned long long> InStream::readUnsignedLongs(int size, unsigned long long minv,
                                                                   unsigned long long maxv,
                                                                   const std::string &variablesName,
                                                                   int indexBase) {
    return readMany<unsigned long long>("readUnsignedLongs", size, indexBase, true,
                                        [&] { return readUnsignedLong(minv, maxv, variablesName); });
}

inline std::vector<int> InStream::readInts(int size, int indexBase) {
    return readMany<int>("readInts", size, indexBase, true, [this] { return readInt(); });
}

inline std::vector<int> InStream::readInts(int size, int minv, int maxv, const std::string &variablesName,
                                           int indexBase) {
    return readMany<int>("readInts", size, indexBase, true, [&] { return readInt(minv, maxv, variablesName); });
}

inline std::vector<int> InStream::readIntegers(int size, int indexBase) {
    return readMany<int>("readIntegers", size, indexBase, true, [this] { return readInt(); });
}

inline std::vector<int> InStream::readIntegers(int size, int minv, int maxv, const std::string &variablesName,
                                               int indexBase) {
    return readMany<int>("readIntegers", size, indexBase, true,
                         [&] { return readInt(minv, maxv, variablesName); });
}

inline std::vector<double> InStream::readReals(int size, int indexBase) {
    return readMany<double>("readReals", size, indexBase, true, [this] { return readReal(); });
}

inline std::vector<double> InStream::readReals(int size, double minv, double maxv,
                                               const std::string &variablesName, int indexBase) {
    return readMany<double>("readReals", size, indexBase, true,
                            [&] { return readReal(minv, maxv, variablesName); });
}

inline std::vector<double> InStream::readDoubles(int size, int indexBase) {
    return readMany<double>("readDoubles", size, indexBase, true, [this] { return readReal(); });
}

inline std::vector<double> InStream::readDoubles(int size, double minv, double maxv,
                                                 const std::string &variablesName, int indexBase) {
    return readMany<double>("readDoubles", size, indexBase, true,
                            [&] { return readReal(minv, maxv, variablesName); });
}

inline std::vector<double> InStream::readStrictReals(int size, double minv, double maxv,
                                                     int minAfterPointDigitCount, int maxAfterPointDigitCount,
                                                     const std::string &variablesName, int indexBase) {
    return readMany<double>("readStrictReals", size, indexBase, true, [&] {
        return readStrictReal(minv, maxv, minAfterPointDigitCount, maxAfterPointDigitCount, variablesName);
    });
}

inline std::vector<double> InStream::readStrictDoubles(int size, double minv, double maxv,
                                                       int minAfterPointDigitCount, int maxAfterPointDigitCount,
                                                       const std::string &variablesName, int indexBase) {
    return readMany<double>("readStrictDoubles", size, indexBase, true, [&] {
        return readStrictReal(minv, maxv, minAfterPointDigitCount, maxAfterPointDigitCount, variablesName);
    });
}

// ----------------------------------------------------------------------- InStream: lines

// A line ends before LF, CR LF or the end of the file. testlib drops a CR that is not followed
// by LF and takes the next character as it is (at the end of the file, EOFC as a char).
inline void InStream::readStringTo(std::string &result) {
    result.clear();
    while (!atEnd() && data_[pos_] != LF) {
        if (data_[pos_] == CR) {
            if (have(pos_ + 1) && data_[pos_ + 1] == LF)
                break;
            pos_++;
            if (atEnd()) {
                result += static_cast<char>(EOFC);
                break;
            }
        }
        result += data_[pos_++];
    }
    if (strict)
        readEoln();
    else
        eoln();
}

inline void InStream::checkedLine(std::string &result, const pattern &p, const std::string &variableName) {
    readStringTo(result);
    if (!p.matches(result))
        mismatch("Line", " ", result, p, variableName);
}

inline void InStream::readStringTo(std::string &result, const pattern &p, const std::string &variableName) {
    checkedLine(result, p, variableName);
}

inline void InStream::readStringTo(std::string &result, const std::string &ptrn, const std::string &variableName) {
    checkedLine(result, pattern(ptrn), variableName);
}

inline void InStream::readLineTo(std::string &result) {
    readStringTo(result);
}

inline void InStream::readLineTo(std::string &result, const pattern &p, const std::string &variableName) {
    checkedLine(result, p, variableName);
}

inline void InStream::readLineTo(std::string &result, const std::string &ptrn, const std::string &variableName) {
    checkedLine(result, pattern(ptrn), variableName);
}

inline std::string InStream::readString() {
    std::string result;
    readStringTo(result);
    return result;
}

inline std::string InStream::readString(const pattern &p, const std::string &variableName) {
    std::string result;
    checkedLine(result, p, variableName);
    return result;
}

inline std::string InStream::readString(const std::string &ptrn, const std::string &variableName) {
    return readString(pattern(ptrn), variableName);
}

inline std::string InStream::readLine() {
    return readString();
}

inline std::string InStream::readLine(const pattern &p, const std::string &variableName) {
    return readString(p, variableName);
}

inline std::string InStream::readLine(const std::string &ptrn, const std::string &variableName) {
    return readString(pattern(ptrn), variableName);
}

inline std::vector<std::string> InStream::readLines(int size, int indexBase) {
    return readMany<std::string>("readLines", size, indexBase, false, [this] { return readString(); });
}

inline std::vector<std::string> InStream::readLines(int size, const pattern &p, const std::string &variablesName,
                                                    int indexBase) {
    return readMany<std::string>("readLines", size, indexBase, false,
                                 [&] { return readString(p, variablesName); });
}

inline std::vector<std::string> InStream::readLines(int size, const std::string &ptrn,
                                                    const std::string &variablesName, int indexBase) {
    return readLines(size, pattern(ptrn), variablesName, indexBase);
}

inline std::vector<std::string> InStream::readStrings(int size, int indexBase) {
    return readMany<std::string>("readStrings", size, indexBase, false, [this] { return readString(); });
}

inline std::vector<std::string> InStream::readStrings(int size, const pattern &p,
                                                      const std::string &variablesName, int indexBase) {
    return readMany<std::string>("readStrings", size, indexBase, false,
                                 [&] { return readString(p, variablesName); });
}

inline std::vector<std::string> InStream::readStrings(int size, const std::string &ptrn,
                                                      const std::string &variablesName, int indexBase) {
    return readStrings(size, pattern(ptrn), variablesName, indexBase);
}

// ----------------------------------------------------------------------- InStream: ending

inline void InStream::quit(TResult result, const char *msg) {
    judge_testlib::State &s = judge_testlib::state();
    s.quitCalled = true;
    std::string message = trim(msg);
    if (s.hasTestCase) {
        bool accepted = result == _ok || result == _points;
        std::string number = vtos(s.testCase);
        message = judge_testlib::withNote(
            message, accepted ? number + (s.testCase == 1 ? " test case" : " test cases") : "test case " + number);
    }
    if (message.size() > maxMessageLength) {
        std::string warning =
            "message length exceeds " + vtos(maxMessageLength) + ", the message is truncated: ";
        message = warning + message.substr(0, maxMessageLength - warning.size());
    }
    if (result == _unexpected_eof)
        result = _pe;
    if (mode != _output && result != _fail)
        quit(_fail, judge_testlib::withNote(message, name).c_str());
    // An accepted answer must be all there is: only blanks may follow it. An interactor's ouf
    // is the program's live output: looking past what it read would wait on the program.
    if ((result == _ok || result == _points || result >= _partially) && !s.interactor && !ouf.seekEof())
        quit(_dirt, "Extra information in the output file");
    judge_testlib::finish(result, message);
}

inline void InStream::quits(TResult result, std::string msg) {
    quit(result, msg.c_str());
}

inline void InStream::quitf(TResult result, const char *msg, ...) {
    va_list args;
    va_start(args, msg);
    std::string message = judge_testlib::vformat(msg, args);
    va_end(args);
    quit(result, message.c_str());
}

inline void InStream::quitif(bool condition, TResult result, const char *msg, ...) {
    if (!condition)
        return;
    va_list args;
    va_start(args, msg);
    std::string message = judge_testlib::vformat(msg, args);
    va_end(args);
    quit(result, message.c_str());
}

inline void InStream::ensuref(bool cond, const char *format, ...) {
    if (cond)
        return;
    va_list args;
    va_start(args, format);
    std::string message = judge_testlib::vformat(format, args);
    va_end(args);
    quit(_wa, message.c_str());
}

inline void InStream::judge_testlib_ensure(bool cond, const std::string &message) {
    if (!cond)
        quit(_wa, message.c_str());
}

// ------------------------------------------------------------------------ the command line

inline void registerTestlibCmd(int argc, char *argv[]) {
    judge_testlib::beginMarks();
    judge_testlib::state().registered = true;
    if (argc != 4)
        quit(_fail, "Program must be run with the following arguments: <input-file> <output-file> <answer-file>");
    inf.init(argv[1], _input);
    ouf.init(argv[2], _output);
    ouf.skipBom();
    ouf.judge_testlib_watch();
    ans.init(argv[3], _answer);
}

inline void registerInteraction(int argc, char *argv[]) {
    judge_testlib::beginMarks();
    judge_testlib::State &s = judge_testlib::state();
    s.registered = true;
    s.interactor = true;
    if (argc < 3 || argc > 6)
        quit(_fail, "Program must be run with the following arguments: <input-file> <output-file> [<answer-file> [<report-file> [<-appes>]]]");
    inf.init(argv[1], _input);
    tout.open(argv[2], std::ios_base::out);
    if (tout.fail() || !tout.is_open())
        quit(_fail, std::string("Can not write to the test-output-file '") + argv[2] + "'");
    ouf.initStreaming(STDIN_FILENO, "stdin", _output);
    ouf.judge_testlib_watch();
    if (argc >= 4)
        ans.init(argv[3], _answer);
    else
        ans.name = "unopened answer stream";
}

// A checker must end by quitting: one that returns from main, or never registered, ends FAIL
// here, once the program's static objects are being destroyed.
namespace judge_testlib {

struct EndOfProgramCheck {
    ~EndOfProgramCheck() {
        State &s = state();
        if (!s.checkAtEnd)
            return;
        s.checkAtEnd = false;
        s.inEndCheck = true;
        if (!s.registered)
            quit(_fail, "Call register-function in the first line of the main (registerTestlibCmd or other similar)");
        if (!s.quitCalled)
            quit(_fail, "Checker must end with quit or quitf call.");
    }
};

EndOfProgramCheck endOfProgramCheck;

}  // namespace judge_testlib

#endif  // JUDGE_TESTLIB_H
