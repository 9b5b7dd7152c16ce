package dev.spool.agent.advice;

import dev.spool.bridge.Hooks;
import java.io.File;
import java.io.IOException;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * Woven into Jackson's {@code readValue(File, ...)} and {@code readTree(File)}: a file whose
 * content is buffered is read from memory with the caller's own mapper; otherwise (or on any
 * failure but the buffer's {@code IOException}) the original read runs.
 */
public final class JacksonReadAdvice {

    private JacksonReadAdvice() {}

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    public static Object enter(@Advice.This Object self, @Advice.Origin("#m") String method,
                               @Advice.AllArguments Object[] args) throws IOException {
        try {
            return Hooks.readJson(self, method, (File) args[0], args.length > 1 ? args[1] : null);
        } catch (IOException e) {
            throw e;
        } catch (Throwable t) {
            return null;
        }
    }

    @Advice.OnMethodExit
    public static void exit(@Advice.Enter Object served,
                            @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object result) {
        if (served != null) {
            result = served == Hooks.NULL ? null : served;
        }
    }
}
