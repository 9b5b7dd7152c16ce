package dev.spool.events;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A map key that is not a string; the path to it is collected while the exception unwinds the
 * encoder (so the fast path pays nothing for path tracking).
 */
final class KeyPathException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final transient Object key;
    private final Deque<String> segments = new ArrayDeque<>();

    KeyPathException(Object key) {
        this.key = key;
    }

    KeyPathException in(String segment) {
        segments.addFirst(segment);
        return this;
    }

    String path() {
        StringBuilder sb = new StringBuilder("$");
        for (String s : segments) {
            sb.append(s);
        }
        return sb.toString();
    }

    @Override
    public String getMessage() {
        return "map key " + key + " (" + (key == null ? "null" : key.getClass().getName()) + ") at "
                + path() + " is not a String: event map keys must be strings; nothing was written";
    }
}
