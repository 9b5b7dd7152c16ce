package dev.spool.internal.config;

import java.util.StringJoiner;

/** Formatting helpers for one-line configuration problem reports. */
final class Problems {
    /** How much of a hostile or huge value a report repeats. */
    static final int SHOWN_CHARS = 120;

    private Problems() {
    }

    /** The text made safe for one log line: control characters escaped, long text cut. */
    static String show(String text) {
        StringBuilder sb = new StringBuilder();
        int limit = Math.min(text.length(), SHOWN_CHARS);
        for (int i = 0; i < limit; i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c == 0x7f || Character.isSurrogate(c)) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        if (text.length() > limit) {
            sb.append("... (").append(text.length()).append(" chars)");
        }
        return sb.toString();
    }

    static String knownKeys() {
        StringJoiner j = new StringJoiner(", ");
        for (ConfigKey k : ConfigKey.values()) {
            j.add(k.key());
        }
        return j.toString();
    }
}
