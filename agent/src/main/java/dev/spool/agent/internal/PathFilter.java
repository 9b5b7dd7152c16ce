package dev.spool.agent.internal;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code spool.buffer.include} / {@code .exclude}: java.nio glob patterns matched against the
 * absolute, normalised path of a file. A file is buffered when some include matches and no
 * exclude does. Immutable, thread-safe.
 */
final class PathFilter {

    private static final String GLOB_META = "*?[]{}\\";

    private final List<PathMatcher> include;
    private final List<PathMatcher> exclude;
    /** The literal endings every included path must have (e.g. ".json" of "**{@literal /}*.json"), or null when some include has none. */
    private final String[] suffixes;

    PathFilter(List<String> includeGlobs, List<String> excludeGlobs) {
        this.include = compile(includeGlobs);
        this.exclude = compile(excludeGlobs);
        this.suffixes = suffixes(includeGlobs);
    }

    private static String[] suffixes(List<String> globs) {
        List<String> out = new ArrayList<>();
        for (String glob : globs) {
            String g = glob.trim();
            if (g.isEmpty()) {
                continue;
            }
            int i = g.length();
            while (i > 0 && GLOB_META.indexOf(g.charAt(i - 1)) < 0 && g.charAt(i - 1) != '/') {
                i--;
            }
            if (i == g.length()) {
                return null; // ends in a wildcard or a separator: no literal ending to test first
            }
            out.add(g.substring(i));
        }
        return out.toArray(new String[0]);
    }

    /**
     * A cheap first test on the path as the caller wrote it: false when the name cannot match any
     * include (its literal ending differs), so the common non-matching call costs a few
     * {@code endsWith} instead of a normalised path and a regular expression.
     */
    boolean mightMatch(String path) {
        if (suffixes == null) {
            return !include.isEmpty();
        }
        for (String suffix : suffixes) {
            if (path.endsWith(suffix)) {
                return true;
            }
        }
        return false;
    }

    private static List<PathMatcher> compile(List<String> globs) {
        List<PathMatcher> matchers = new ArrayList<>();
        for (String glob : globs) {
            String g = glob.trim();
            if (!g.isEmpty()) {
                matchers.add(FileSystems.getDefault().getPathMatcher("glob:" + g));
            }
        }
        return List.copyOf(matchers);
    }

    boolean matches(Path absolute) {
        boolean in = false;
        for (PathMatcher m : include) {
            if (m.matches(absolute)) {
                in = true;
                break;
            }
        }
        if (!in) {
            return false;
        }
        for (PathMatcher m : exclude) {
            if (m.matches(absolute)) {
                return false;
            }
        }
        return true;
    }
}
