package dev.spool.agent.logback;

/**
 * A converter's format modifier ({@code %-5level}, {@code %.-10logger}, {@code %20.30thread}),
 * copied from Logback's {@code FormatInfo} once at compile time; applied exactly as Logback's
 * {@code FormattingConverter.write} applies it (lengths in UTF-16 chars).
 */
record LayoutFormat(int min, int max, boolean leftPad, boolean leftTruncate) {

    /** The modifier of Logback's {@code FormatInfo} {@code info}, or null when there is none. */
    static LayoutFormat of(Object info) throws ReflectiveOperationException {
        if (info == null) {
            return null;
        }
        Class<?> t = info.getClass();
        return new LayoutFormat((Integer) t.getMethod("getMin").invoke(info), (Integer) t.getMethod("getMax").invoke(info),
                (Boolean) t.getMethod("isLeftPad").invoke(info), (Boolean) t.getMethod("isLeftTruncate").invoke(info));
    }

    /** {@code s} formatted by {@code format} (null: unchanged, {@code "null"} for null), as one string. */
    static String apply(String s, LayoutFormat format) {
        if (format == null) {
            return String.valueOf(s);
        }
        if (s == null) {
            return " ".repeat(Math.max(0, format.min));
        }
        int len = s.length();
        if (len > format.max) {
            return format.leftTruncate ? s.substring(len - format.max) : s.substring(0, format.max);
        }
        if (len < format.min) {
            String pad = " ".repeat(format.min - len);
            return format.leftPad ? pad + s : s + pad;
        }
        return s;
    }
}
