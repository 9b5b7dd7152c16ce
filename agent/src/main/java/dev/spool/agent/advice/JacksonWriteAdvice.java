package dev.spool.agent.advice;

import dev.spool.bridge.Hooks;
import java.io.File;
import java.io.IOException;
import net.bytebuddy.asm.Advice;

/**
 * Woven into Jackson's {@code ObjectMapper.writeValue(File, Object)} and
 * {@code ObjectWriter.writeValue(File, Object)}: offers the write to Spool; when Spool takes it
 * the original body is skipped. Every failure except the buffer's own {@code IOException}
 * (an earlier flush of this file failed) falls back to the original write.
 *
 * <p>{@code @Advice.This} is typed {@code Object}: naming Jackson's type here would make the
 * advice's class loader define it a second time ({@code LinkageError}).
 */
public final class JacksonWriteAdvice {

    private JacksonWriteAdvice() {}

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    public static boolean enter(@Advice.This Object self, @Advice.Argument(0) File file,
                                @Advice.Argument(1) Object value) throws IOException {
        try {
            return Hooks.writeJson(self, file, value);
        } catch (IOException e) {
            throw e;
        } catch (Throwable t) {
            return false;
        }
    }
}
