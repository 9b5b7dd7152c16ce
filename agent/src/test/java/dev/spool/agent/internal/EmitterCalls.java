package dev.spool.agent.internal;

import java.util.List;

/** What {@link AsmWeaverTest} calls on the woven copy of {@link WovenEmitter} (this interface stays the test loader's). */
public interface EmitterCalls {
    void log(String message);

    int count(long a, double b, boolean c, char d, byte e, short f, float g, int h);

    Object make(String name, int[] values);

    List<String> ran();
}
