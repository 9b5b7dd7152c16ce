package dev.spool.collections;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Where a value sits in a file's tree: map keys ({@code String}) and list indexes
 * ({@code Integer}) from the root. Rendered as {@code a.b[2].c} in messages. Immutable.
 */
final class KeyPath {
    static final KeyPath ROOT = new KeyPath(new Object[0]);

    private final Object[] segments;

    private KeyPath(Object[] segments) {
        this.segments = segments;
    }

    KeyPath key(String key) {
        return append(key);
    }

    KeyPath index(int index) {
        return append(index);
    }

    private KeyPath append(Object seg) {
        Object[] s = Arrays.copyOf(segments, segments.length + 1);
        s[segments.length] = seg;
        return new KeyPath(s);
    }

    boolean isRoot() {
        return segments.length == 0;
    }

    /** The value at this path in {@code root}; fails if a step no longer exists or has changed type. */
    Object resolve(Object root, String file) {
        Object v = root;
        for (int i = 0; i < segments.length; i++) {
            Object seg = segments[i];
            if (seg instanceof String k && v instanceof Map<?, ?> m && m.containsKey(k)) {
                v = m.get(k);
            } else if (seg instanceof Integer idx && v instanceof List<?> l && idx < l.size()) {
                v = l.get(idx);
            } else {
                throw new IllegalStateException("the value at key path " + prefix(i + 1) + " in " + file
                        + " no longer exists (removed or replaced since this view was taken)");
            }
        }
        return v;
    }

    private String prefix(int n) {
        return new KeyPath(Arrays.copyOf(segments, n)).toString();
    }

    @Override
    public String toString() {
        if (segments.length == 0) return "(root)";
        StringBuilder sb = new StringBuilder();
        for (Object seg : segments) {
            if (seg instanceof Integer) sb.append('[').append(seg).append(']');
            else {
                if (sb.length() > 0) sb.append('.');
                sb.append(seg);
            }
        }
        return sb.toString();
    }
}
