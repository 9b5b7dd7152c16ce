package dev.spool.agent.jul;

import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.text.NumberFormat;
import java.util.Locale;

/**
 * What {@code NumberFormat.getInstance(locale).format(n)} gives for an integral {@code n}
 * ({@code Integer}, {@code Long}, {@code Short}, {@code Byte}: the JDK's {@code DecimalFormat}
 * formats them all as a {@code long}), appended to a {@code StringBuilder} without the
 * {@code DecimalFormat}'s {@code StringBuffer}, digit list and field positions (JFR on the JUL
 * anchors' realistic row: a third of the writer's time was {@code DecimalFormat} formatting one
 * integer per record).
 *
 * <p>Exact by construction and by proof: the text is the format's own prefix, the digits in the
 * locale's zero digit with its grouping separator every {@code getGroupingSize()} digits, and its
 * suffix — which is {@code DecimalFormat.subformat} for an integer when the multiplier is 1, at
 * least one and at most 19 integer digits are allowed, no exponent, no fraction digits and no
 * decimal separator are shown. A locale whose {@code NumberFormat} is not such a {@code DecimalFormat},
 * or whose text differs from the JDK's for any of {@link #PROBES}, keeps the JDK's formatter
 * ({@link #of} returns null). {@code Long.MIN_VALUE} always goes to the JDK (its negation overflows).
 *
 * <p>Immutable, thread-safe.
 */
final class JulIntegerText {

    private static final long[] POW10 = {
        1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L, 100_000_000L, 1_000_000_000L,
        10_000_000_000L, 100_000_000_000L, 1_000_000_000_000L, 10_000_000_000_000L, 100_000_000_000_000L,
        1_000_000_000_000_000L, 10_000_000_000_000_000L, 100_000_000_000_000_000L, 1_000_000_000_000_000_000L,
    };

    /** Values compared with the JDK before a locale is served: each digit count, signs, grouping edges. */
    static final long[] PROBES = probes();

    private final String positivePrefix;
    private final String positiveSuffix;
    private final String negativePrefix;
    private final String negativeSuffix;
    private final char zero;
    private final char grouping;
    private final int groupingSize; // 0: no grouping
    private final int minimumDigits;

    private JulIntegerText(DecimalFormat f) {
        DecimalFormatSymbols s = f.getDecimalFormatSymbols();
        positivePrefix = f.getPositivePrefix();
        positiveSuffix = f.getPositiveSuffix();
        negativePrefix = f.getNegativePrefix();
        negativeSuffix = f.getNegativeSuffix();
        zero = s.getZeroDigit();
        grouping = s.getGroupingSeparator();
        groupingSize = f.isGroupingUsed() ? f.getGroupingSize() : 0;
        minimumDigits = f.getMinimumIntegerDigits();
    }

    /** The locale's integer text, or null when Spool cannot prove it equal to the JDK's (then use {@code NumberFormat}). */
    static JulIntegerText of(Locale locale) {
        return of(NumberFormat.getInstance(locale));
    }

    /** As {@link #of(Locale)} for this {@code NumberFormat} (each probe is compared with {@code format.format}). */
    static JulIntegerText of(NumberFormat format) {
        if (format.getClass() != DecimalFormat.class) {
            return null;
        }
        DecimalFormat f = (DecimalFormat) format;
        String pattern = f.toPattern();
        if (f.getMultiplier() != 1 || f.getMinimumIntegerDigits() < 1 || f.getMinimumIntegerDigits() > 19
                || f.getMaximumIntegerDigits() < 19 || f.getMinimumFractionDigits() != 0
                || f.isDecimalSeparatorAlwaysShown() || pattern.indexOf('E') >= 0) {
            return null;
        }
        JulIntegerText t = new JulIntegerText(f);
        StringBuilder sb = new StringBuilder();
        for (long p : PROBES) {
            sb.setLength(0);
            t.append(sb, p);
            if (!sb.toString().equals(f.format(p))) {
                return null;
            }
        }
        return t;
    }

    /** Appends {@code value} as the locale's {@code NumberFormat} would; false (nothing appended) for {@code Long.MIN_VALUE}. */
    boolean append(StringBuilder sb, long value) {
        if (value == Long.MIN_VALUE) {
            return false;
        }
        boolean negative = value < 0;
        long v = negative ? -value : value;
        sb.append(negative ? negativePrefix : positivePrefix);
        int digits = 1;
        while (digits < POW10.length && v >= POW10[digits]) {
            digits++;
        }
        int count = Math.max(digits, minimumDigits);
        for (int i = count - 1; i >= 0; i--) { // the zeros and separators first, then the digits from the right
            sb.append(zero);
            if (groupingSize > 0 && i > 0 && i % groupingSize == 0) {
                sb.append(grouping);
            }
        }
        int k = sb.length() - 1;
        for (int placed = 0; v > 0; placed++) {
            if (groupingSize > 0 && placed > 0 && placed % groupingSize == 0) {
                k--; // the separator after this digit
            }
            sb.setCharAt(k--, (char) (zero + (int) (v % 10)));
            v /= 10;
        }
        sb.append(negative ? negativeSuffix : positiveSuffix);
        return true;
    }


    private static long[] probes() {
        long[] out = new long[5 * 18 + 6];
        int n = 0;
        for (int d = 1; d < POW10.length; d++) {
            out[n++] = POW10[d - 1];          // the smallest with d digits
            out[n++] = POW10[d] - 1;          // the largest with d digits
            out[n++] = -POW10[d - 1];
            out[n++] = -(POW10[d] - 1);
            out[n++] = 1_234_567_890_123_456_789L % POW10[d]; // assorted digits
        }
        out[n++] = 0;
        out[n++] = Long.MAX_VALUE;
        out[n++] = -Long.MAX_VALUE;
        out[n++] = Integer.MAX_VALUE;
        out[n++] = Integer.MIN_VALUE;
        out[n++] = 1_000_042;
        return out;
    }
}
