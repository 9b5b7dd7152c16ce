package dev.spool.buffer;

import dev.spool.internal.Internal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON type of a live entry's root: an object ({@code SyncedMap}) or an array ({@code SyncedList}). */
@Internal
public enum JsonKind {
    MAP("an object"), LIST("an array");

    private final String noun;

    JsonKind(String noun) { this.noun = noun; }

    /** The root of a missing file. */
    public Object empty() {
        return this == MAP ? new LinkedHashMap<String, Object>() : new ArrayList<Object>();
    }

    /** Returns {@code root} if it is of this kind; otherwise fails naming the file. */
    Object check(Path file, Object root) {
        boolean ok = this == MAP ? root instanceof Map : root instanceof List;
        if (!ok) {
            String found = root instanceof Map ? "an object" : root instanceof List ? "an array"
                    : root == null ? "null" : "a " + root.getClass().getSimpleName();
            throw new IllegalStateException(file + " holds " + found + " at its top level, expected " + noun);
        }
        return root;
    }
}
