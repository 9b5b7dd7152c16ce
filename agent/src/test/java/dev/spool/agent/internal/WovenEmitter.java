package dev.spool.agent.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * An emitter class for {@link AsmWeaverTest}: loaded a second time, woven, by the test's own class
 * loader, and called through {@link EmitterCalls} (an interface of the test's loader). Each
 * body records that it ran.
 */
public class WovenEmitter implements EmitterCalls {

    private final List<String> ran = new ArrayList<>();

    @Override
    public void log(String message) {
        ran.add("log " + message);
    }

    @Override
    public int count(long a, double b, boolean c, char d, byte e, short f, float g, int h) {
        ran.add("count");
        return 42;
    }

    @Override
    public Object make(String name, int[] values) {
        ran.add("make " + name);
        return name + values.length;
    }

    public static long twice(long x) {
        return 2 * x;
    }

    @Override
    public List<String> ran() {
        return ran;
    }
}
