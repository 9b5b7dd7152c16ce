package dev.spool.agent.jul;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.text.NumberFormat;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Differential: {@link JulIntegerText} against {@code NumberFormat.getInstance(locale).format(long)}
 * (what {@code MessageFormat} gives an {@code Integer}/{@code Long}/{@code Short}/{@code Byte}
 * argument) for every locale the JDK has, random values of every length and sign, and formats
 * changed to other grouping sizes, minimum digits and affixes.
 */
class JulIntegerTextTest {

    @Test
    void shouldFormatIntegersLikeTheLocalesNumberFormatInEveryLocale() {
        Random random = new Random(1313);
        int served = 0;
        for (Locale locale : Locale.getAvailableLocales()) {
            JulIntegerText text = JulIntegerText.of(locale);
            if (text == null) {
                continue; // the JDK's NumberFormat stays (exact by definition)
            }
            served++;
            NumberFormat jdk = NumberFormat.getInstance(locale);
            for (int i = 0; i < 300; i++) {
                long v = value(random);
                assertSame(jdk, text, v, locale.toLanguageTag());
            }
        }
        assertTrue(served > Locale.getAvailableLocales().length / 2, "most locales served: " + served);
        assertTrue(JulIntegerText.of(Locale.forLanguageTag("th-TH-u-nu-thai")) != null, "Thai digits served");
    }

    @Test
    void shouldFollowAChangedFormatOrRefuseIt() {
        Random random = new Random(7);
        DecimalFormat indian = new DecimalFormat("#,##,##0.###", DecimalFormatSymbols.getInstance(Locale.forLanguageTag("hi-IN")));
        DecimalFormat fours = new DecimalFormat("#,###0", DecimalFormatSymbols.getInstance(Locale.GERMANY));
        DecimalFormat padded = new DecimalFormat("000000", DecimalFormatSymbols.getInstance(Locale.US));
        DecimalFormat affixes = new DecimalFormat("'<'#,##0'>';'('#,##0')'", DecimalFormatSymbols.getInstance(Locale.FRANCE));
        DecimalFormat ungrouped = (DecimalFormat) NumberFormat.getInstance(Locale.US);
        ungrouped.setGroupingUsed(false);
        for (DecimalFormat f : new DecimalFormat[] {indian, fours, padded, affixes, ungrouped}) {
            JulIntegerText text = JulIntegerText.of(f);
            assertTrue(text != null, f.toPattern());
            for (int i = 0; i < 2000; i++) {
                assertSame(f, text, value(random), f.toPattern());
            }
        }
        assertNull(JulIntegerText.of(new DecimalFormat("#,##0.00")), "fraction digits shown: refused");
        assertNull(JulIntegerText.of(new DecimalFormat("0.###E0")), "exponent: refused");
        DecimalFormat times = new DecimalFormat("#,##0");
        times.setMultiplier(100);
        assertNull(JulIntegerText.of(times), "a multiplier: refused");
        assertFalse(JulIntegerText.of(Locale.US).append(new StringBuilder(), Long.MIN_VALUE), "Long.MIN_VALUE goes to the JDK");
    }

    private static void assertSame(NumberFormat jdk, JulIntegerText text, long v, String where) {
        StringBuilder sb = new StringBuilder("x");
        assertTrue(text.append(sb, v));
        assertEquals("x" + jdk.format(v), sb.toString(), () -> where + " " + v);
    }

    private static long value(Random random) {
        long v = switch (random.nextInt(4)) {
            case 0 -> random.nextInt(2000) - 1000;
            case 1 -> random.nextInt();
            case 2 -> random.nextLong() >> random.nextInt(63);
            default -> random.nextLong();
        };
        return v == Long.MIN_VALUE ? 0 : v;
    }
}
