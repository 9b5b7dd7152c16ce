package dev.spool.agent.jul;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Differential: {@link JulMessages#formatMessage} with a {@link JulMessageFormats} (patterns parsed
 * once, one {@code NumberFormat} per locale) against the JDK's {@code Formatter.formatMessage}, over
 * random patterns (quotes, braces, plain and typed arguments, indexes past the arguments, broken
 * ones), the immutable parameter types the writer formats, and locales with other digits and
 * separators, with one cache reused throughout (locale changes, the size bound).
 */
class JulMessageFormatsTest {

    private static final List<Locale> LOCALES = List.of(Locale.US, Locale.GERMANY, Locale.FRANCE,
            Locale.forLanguageTag("de-CH"), Locale.forLanguageTag("ar-EG"), Locale.forLanguageTag("th-TH-u-nu-thai"),
            Locale.forLanguageTag("hi-IN"), Locale.forLanguageTag("tr-TR"), Locale.JAPAN);
    private static final String[] PIECES = {"user ", "did ", " in ", "ms", "\u00e9\u00e8 \u2713", "'", "''", "'{'", "'{0}'",
        "'quoted {1} text'", "{0}", "{1}", "{2}", "{3}", "{5}", "{ 1 }", "{1 }", "{01}", "{1,number}", "{1,number,#.##}",
        "{0,number,integer}", "{2,choice,0#none|1#one|1<{2} many}", "{0,date}", "{", "}", "{x}", "{-1}", "{99999}", "{1,",
        "{1,foo}", "a{", "}b", "{{0}}", ""};

    private Locale formatLocale;

    @BeforeEach
    void remember() {
        formatLocale = Locale.getDefault(Locale.Category.FORMAT);
    }

    @AfterEach
    void restore() {
        Locale.setDefault(Locale.Category.FORMAT, formatLocale);
    }

    @Test
    void shouldFormatEveryMessageLikeTheJdksFormatMessage() {
        Random random = new Random(1313);
        SimpleFormatter jdk = new SimpleFormatter();
        JulMessageFormats formats = new JulMessageFormats();
        int viaCache = 0;
        for (int i = 0; i < 40_000; i++) {
            if (i % 500 == 0) {
                Locale.setDefault(Locale.Category.FORMAT, LOCALES.get(random.nextInt(LOCALES.size())));
            }
            String pattern = i % 7 == 0 ? "request " + i + " {0} took {1} ms" : pattern(random); // many distinct: the bound
            Object[] params = new Object[random.nextInt(5)];
            for (int p = 0; p < params.length; p++) {
                params[p] = parameter(random);
            }
            LogRecord r = new LogRecord(Level.INFO, pattern);
            r.setParameters(params.clone());
            String expected = jdk.formatMessage(r);
            String actual = JulMessages.formatMessage(pattern, null, params, formats, java.util.Locale.getDefault(java.util.Locale.Category.FORMAT));
            assertEquals(expected, actual, () -> "pattern [" + pattern + "] params " + java.util.Arrays.toString(params)
                    + " locale " + Locale.getDefault(Locale.Category.FORMAT));
            if (!expected.equals(pattern)) {
                viaCache++;
            }
        }
        assertTrue(viaCache > 10_000, "most cases formatted something: " + viaCache);
    }

    @Test
    void shouldParseAPatternOnceIntoLiteralsAndArgumentIndexes() {
        JulMessageFormats.Compiled c = JulMessageFormats.compile("it''s '{0}' {1} and {0}{2}!", Locale.US);
        assertEquals(List.of("it's {0} ", " and ", "", "!"), List.of(c.literals()));
        assertEquals(List.of(1, 0, 2), java.util.Arrays.stream(c.arguments()).boxed().toList());
    }

    private static String pattern(Random random) {
        StringBuilder sb = new StringBuilder();
        int n = 1 + random.nextInt(6);
        for (int i = 0; i < n; i++) {
            sb.append(PIECES[random.nextInt(PIECES.length)]);
        }
        if (sb.indexOf("{") < 0) {
            sb.append("{0}");
        }
        return sb.toString();
    }

    private static Object parameter(Random random) {
        return switch (random.nextInt(14)) {
            case 0 -> null;
            case 1 -> "";
            case 2 -> "text " + random.nextInt(100);
            case 3 -> random.nextInt();
            case 4 -> random.nextInt(1000);
            case 5 -> random.nextLong();
            case 6 -> random.nextDouble() * 1e6 - 5e5;
            case 7 -> new double[] {Double.NaN, Double.POSITIVE_INFINITY, -0.0, 1e-9, 12345.6789}[random.nextInt(5)];
            case 8 -> (float) random.nextGaussian();
            case 9 -> (short) random.nextInt();
            case 10 -> random.nextBoolean();
            case 11 -> (char) ('a' + random.nextInt(26));
            case 12 -> new BigInteger(80, random);
            default -> new UUID(random.nextLong(), random.nextLong());
        };
    }
}
