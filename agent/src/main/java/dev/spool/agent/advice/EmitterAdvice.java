package dev.spool.agent.advice;

import dev.spool.bridge.Hooks;
import net.bytebuddy.asm.Advice;

/**
 * Woven into each method named by {@code spool.events.methods}: the call's arguments become one
 * event; in mode {@code route} the original body is skipped (a non-void method then returns its
 * type's default value), in {@code tee} it runs as well.
 */
public final class EmitterAdvice {

    private EmitterAdvice() {}

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    public static boolean enter(@Advice.Origin("#t.#m") String method, @Advice.AllArguments Object[] args) {
        try {
            return Hooks.emit(method, args);
        } catch (Throwable t) {
            return false;
        }
    }
}
