package dev.spool.agent.files;

import dev.spool.bridge.Hooks;
import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Set;

/**
 * Lets {@code java.base}'s woven file classes call the boot bridge: {@code java.base} is made to
 * read the bridge's module (the boot loader's unnamed module) through
 * {@link Instrumentation#redefineModule}, the supported way for an agent; nothing is exported or
 * opened, and no other module changes.
 */
public final class HostFileAccess {

    private HostFileAccess() {}

    /** Adds the read edge; false (nothing changed) when the JDK refuses. */
    public static boolean open(Instrumentation inst) {
        try {
            Module base = Object.class.getModule();
            Module bridge = Hooks.class.getModule();
            if (!base.canRead(bridge)) {
                inst.redefineModule(base, Set.of(bridge), Map.of(), Map.of(), Set.of(), Map.of());
            }
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }
}
