package dev.spool.internal.config;

import java.nio.file.FileSystems;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * How the text of one configuration value becomes a typed value. {@link #parse(String)} throws
 * {@link IllegalArgumentException} with a short reason; the caller adds the key, the value and
 * {@link #accepted()}.
 */
abstract class ValueType {
    /** Longest value text accepted at all; anything longer is hostile or a mistake. */
    static final int MAX_VALUE_LENGTH = 8192;

    private static final Pattern METHOD = Pattern.compile(
            "\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*"
                    + "(?:[.$]\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*)*"
                    + "#\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*");

    abstract Object parse(String text);

    abstract String accepted();

    static final ValueType BOOLEAN = new ValueType() {
        @Override
        Object parse(String text) {
            String t = text.trim().toLowerCase(Locale.ROOT);
            if (t.equals("true")) {
                return Boolean.TRUE;
            }
            if (t.equals("false")) {
                return Boolean.FALSE;
            }
            throw new IllegalArgumentException("not a boolean");
        }

        @Override
        String accepted() {
            return "true or false";
        }
    };

    /** Any text (trimmed); empty means "none". */
    static final ValueType TEXT = new ValueType() {
        @Override
        Object parse(String text) {
            return text.trim();
        }

        @Override
        String accepted() {
            return "any text";
        }
    };

    static final ValueType GLOBS = new ValueType() {
        @Override
        Object parse(String text) {
            List<String> globs = splitList(text);
            for (String g : globs) {
                try {
                    FileSystems.getDefault().getPathMatcher("glob:" + g);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("bad glob '" + g + "': " + e.getMessage());
                }
            }
            return List.copyOf(globs);
        }

        @Override
        String accepted() {
            return "java.nio glob patterns separated by ';' (or empty for none)";
        }
    };

    static final ValueType METHODS = new ValueType() {
        @Override
        Object parse(String text) {
            List<String> methods = splitList(text);
            for (String m : methods) {
                if (!METHOD.matcher(m).matches()) {
                    throw new IllegalArgumentException("'" + m + "' is not of the form class#method");
                }
            }
            return List.copyOf(methods);
        }

        @Override
        String accepted() {
            return "fully qualified class#method entries separated by ';' (or empty for none)";
        }
    };

    static final ValueType PATH = path(false);
    static final ValueType PATH_OR_EMPTY = path(true);

    private static ValueType path(boolean emptyAllowed) {
        return new ValueType() {
            @Override
            Object parse(String text) {
                String t = text.trim();
                if (t.isEmpty()) {
                    if (emptyAllowed) {
                        return "";
                    }
                    throw new IllegalArgumentException("empty");
                }
                try {
                    Path.of(t);
                } catch (InvalidPathException e) {
                    throw new IllegalArgumentException("not a valid path: " + e.getReason());
                }
                return t;
            }

            @Override
            String accepted() {
                return emptyAllowed ? "a file path (or empty for none)" : "a non-empty file path";
            }
        };
    }

    static ValueType choice(String... choices) {
        List<String> allowed = Arrays.asList(choices);
        return new ValueType() {
            @Override
            Object parse(String text) {
                String t = text.trim().toLowerCase(Locale.ROOT);
                if (!allowed.contains(t)) {
                    throw new IllegalArgumentException("not one of the choices");
                }
                return t;
            }

            @Override
            String accepted() {
                return "one of " + String.join(", ", allowed);
            }
        };
    }

    static ValueType intRange(int min, int max) {
        ValueType longs = longRange(min, max);
        return new ValueType() {
            @Override
            Object parse(String text) {
                return ((Long) longs.parse(text)).intValue();
            }

            @Override
            String accepted() {
                return longs.accepted();
            }
        };
    }

    static ValueType longRange(long min, long max) {
        return numeric(min, max, false);
    }

    /** A byte count; accepts the binary suffixes k, m and g (1k = 1024). */
    static ValueType sizeRange(long min, long max) {
        return numeric(min, max, true);
    }

    private static ValueType numeric(long min, long max, boolean suffixes) {
        return new ValueType() {
            @Override
            Object parse(String text) {
                String t = text.trim().toLowerCase(Locale.ROOT).replace("_", "");
                int shift = 0;
                if (suffixes && !t.isEmpty()) {
                    char last = t.charAt(t.length() - 1);
                    shift = last == 'k' ? 10 : last == 'm' ? 20 : last == 'g' ? 30 : 0;
                    if (shift != 0) {
                        t = t.substring(0, t.length() - 1);
                    }
                }
                long value;
                try {
                    value = Long.parseLong(t);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("not a whole number");
                }
                if (shift != 0) {
                    if (Math.abs(value) > (Long.MAX_VALUE >> shift)) {
                        throw new IllegalArgumentException("out of range");
                    }
                    value <<= shift;
                }
                if (value < min || value > max) {
                    throw new IllegalArgumentException("out of range");
                }
                return value;
            }

            @Override
            String accepted() {
                String range = "a whole number from " + min + " to " + max;
                return suffixes ? range + " (suffix k, m or g for KiB, MiB, GiB allowed)" : range;
            }
        };
    }

    /** Splits a list value on ';', trimming items and dropping empty ones. */
    static List<String> splitList(String text) {
        List<String> items = new ArrayList<>();
        for (String part : text.split(";")) {
            String p = part.trim();
            if (!p.isEmpty()) {
                items.add(p);
            }
        }
        return items;
    }
}
