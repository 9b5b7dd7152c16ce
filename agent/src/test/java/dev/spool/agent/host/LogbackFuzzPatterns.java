package dev.spool.agent.host;

import java.util.Random;

/**
 * Random Logback {@code PatternLayout} patterns for the Logback differential fuzz ({@code LogbackFuzzHost}):
 * every converter word Logback's {@code PatternLayout} knows (1.4 to 1.6; a word an older line lacks prints
 * Logback's own {@code %PARSER_ERROR[...]} on both sides), with random options (date patterns and zones,
 * logger and class lengths, caller depth, MDC keys with defaults, throwable depths and short/full, kvp quoting,
 * masked keys, property names; not {@code %lsn}, a wall-clock counter that differs from run to run), padding and truncation ({@code %-20.-5}), composites ({@code %(..)},
 * {@code %replace(..){'re','by'}}, {@code %prefix(..)}, colours, {@code %highlight}), literals (escapes,
 * non-ASCII, emoji, tabs) and {@code %n} in the middle and at the end.
 */
final class LogbackFuzzPatterns {

    static final String[] DATES = {"", "{ISO8601}", "{yyyy-MM-dd HH:mm:ss.SSS}", "{HH:mm:ss.SSS, UTC}", "{ISO8601, Europe/Berlin}",
        "{\"yyyy-MM-dd'T'HH:mm:ss,SSSXXX\", Asia/Kolkata}", "{\"EEE, dd MMM yyyy HH:mm:ss Z\"}", "{hh:mm a, America/St_Johns}",
        "{yyyyMMdd'T'HHmmss.SSS, Pacific/Chatham}", "{dd/MMM/yyyy:HH:mm:ss Z, Australia/Lord_Howe}", "{HH:mm:ss.SSSSSS}",
        "{yyyy-MM-dd HH:mm:ss zzz}", "{EEEE d MMMM G, Asia/Kathmandu}", "{ss.SSS}", "{HH:mm:ss,UTC}", "{yyyy-MM-dd}",
        "{QQQ w D, America/New_York}"};
    private static final String[] LOGGERS = {"", "{0}", "{1}", "{5}", "{10}", "{15}", "{20}", "{36}", "{100}"};
    private static final String[] THROWABLES = {"", "{short}", "{full}", "{0}", "{1}", "{3}", "{10}"};
    private static final String[] MDC = {"", "{user}", "{request}", "{missing}", "{missing:-dflt}", "{user:-}", "{é}"};
    private static final String[] LITERALS = {" ", " - ", "[", "]", ": ", "|", "é", "✓", "\ud83d\ude00", "\\%", "\t", "x", ",",
        "\\(", "\\)", "{", "}", "'", "\"", "%n", "\\\\", "<&>", "  "};
    /** Literals whose parsing cannot swallow a pattern's end (no braces, parentheses, escapes or quotes). */
    private static final String[] SAFE_LITERALS = {" ", " - ", "[", "]", ": ", "|", "é", "✓", "\ud83d\ude00", "\t", "x", ",", "<&>"};
    private static final String[] WORDS = {"d", "date", "level", "le", "p", "logger", "lo", "c", "thread", "t", "message", "msg",
        "m", "C", "class", "M", "method", "L", "line", "F", "file", "caller", "X", "mdc", "marker", "ex", "exception",
        "throwable", "xEx", "xException", "xThrowable", "rEx", "rootException", "nopex", "nopexception", "kvp", "maskedKvp",
        "r", "relative", "sn", "sequenceNumber", "cn", "contextName", "property", "micros", "ms", "ep", "epoch", "n",
        "BARE"};
    private static final String[] COMPOSITES = {"", "replace", "prefix", "highlight", "black", "red", "green", "yellow", "blue",
        "magenta", "cyan", "white", "gray", "boldRed", "boldGreen", "boldYellow", "boldBlue", "boldMagenta", "boldCyan",
        "boldWhite"};
    private static final String[] REPLACEMENTS = {"{'\\d', '#'}", "{'o', '0'}", "{'\\s+', '_'}", "{'^(.)', '<$1>'}", "{'é', 'e'}",
        "{'.*', ''}"};

    private LogbackFuzzPatterns() {}

    /**
     * A random pattern; about two in three end each event with {@code %n}. {@code threads > 1}: without
     * {@code %relative}, whose converter's cache Logback's own threads race on (plain runs differ from each other),
     * and only literals that cannot change how the rest parses (the host ends such patterns with a line end).
     */
    static String pattern(Random r, int threads) {
        StringBuilder sb = new StringBuilder();
        int pieces = 1 + r.nextInt(8);
        String[] literals = threads > 1 ? SAFE_LITERALS : LITERALS;
        for (int i = 0; i < pieces; i++) {
            piece(sb, r, 0, literals);
        }
        if (r.nextInt(3) != 0) {
            sb.append("%n");
        }
        return threads > 1 ? withoutRacyConverters(sb.toString()) : sb.toString();
    }

    /** {@code pattern} with {@code %level} for {@code %relative}/{@code %r}. */
    static String withoutRacyConverters(String pattern) {
        return RACY.matcher(pattern).replaceAll("$1level");
    }

    private static final java.util.regex.Pattern RACY = java.util.regex.Pattern.compile("(%[-.0-9]*)(?:relative|r)(?![a-zA-Z])");

    private static void piece(StringBuilder sb, Random r, int depth, String[] literals) {
        int kind = r.nextInt(10);
        if (kind < 2) {
            sb.append(literals[r.nextInt(literals.length)]);
        } else if (kind == 2 && depth < 2) {
            composite(sb, r, depth, literals);
        } else {
            converter(sb, r);
        }
    }

    private static void composite(StringBuilder sb, Random r, int depth, String[] literals) {
        String word = COMPOSITES[r.nextInt(COMPOSITES.length)];
        sb.append('%').append(format(r)).append(word).append('(');
        int inner = 1 + r.nextInt(3);
        for (int i = 0; i < inner; i++) {
            piece(sb, r, depth + 1, literals);
        }
        sb.append(')');
        if (word.equals("replace")) {
            sb.append(REPLACEMENTS[r.nextInt(REPLACEMENTS.length)]);
        }
    }

    private static void converter(StringBuilder sb, Random r) {
        String word = WORDS[r.nextInt(WORDS.length)];
        sb.append('%').append(format(r)).append(word).append(option(word, r));
    }

    /** Padding and truncation: {@code -20}, {@code .5}, {@code .-5}, {@code 10.30}, or none. */
    private static String format(Random r) {
        return switch (r.nextInt(8)) {
            case 0 -> "-" + (1 + r.nextInt(30));
            case 1 -> Integer.toString(1 + r.nextInt(30));
            case 2 -> "." + (1 + r.nextInt(12));
            case 3 -> ".-" + (1 + r.nextInt(12));
            case 4 -> (r.nextBoolean() ? "-" : "") + (1 + r.nextInt(20)) + "." + (r.nextBoolean() ? "-" : "") + (1 + r.nextInt(20));
            default -> "";
        };
    }

    private static String option(String word, Random r) {
        return switch (word) {
            case "d", "date" -> DATES[r.nextInt(DATES.length)];
            case "logger", "lo", "c", "C", "class" -> LOGGERS[r.nextInt(LOGGERS.length)];
            case "caller" -> new String[] {"", "{1}", "{2}", "{3}", "{1..2}"}[r.nextInt(5)];
            case "X", "mdc" -> MDC[r.nextInt(MDC.length)];
            case "ex", "exception", "throwable", "xEx", "xException", "xThrowable", "rEx", "rootException" ->
                THROWABLES[r.nextInt(THROWABLES.length)];
            case "kvp" -> new String[] {"", "{SINGLE}", "{DOUBLE}", "{NONE}"}[r.nextInt(4)];
            case "maskedKvp" -> new String[] {"{k1}", "{k1, k2}", ""}[r.nextInt(3)];
            case "property" -> new String[] {"{p}", "{missing}", "{CONTEXT_NAME}"}[r.nextInt(3)];
            case "ep", "epoch" -> new String[] {"", "{seconds}", "{millis}"}[r.nextInt(3)];
            default -> "";
        };
    }
}
