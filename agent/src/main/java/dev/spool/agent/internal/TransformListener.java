package dev.spool.agent.internal;

import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.utility.JavaModule;

/** Records transformed classes on {@link AgentControl}; a class that cannot be transformed is reported once and left as it is. */
final class TransformListener extends AgentBuilder.Listener.Adapter {

    private final AgentControl control;

    TransformListener(AgentControl control) {
        this.control = control;
    }

    @Override
    public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module, boolean loaded,
                                 DynamicType dynamicType) {
        if (type.getName().equals(Warmup.CLASS_NAME)) {
            return;
        }
        control.instrumented(type.getName());
        AgentLog.debug("instrumented " + type.getName() + (loaded ? " (retransformed)" : ""));
    }

    @Override
    public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable error) {
        control.error("transform:" + typeName, "cannot instrument " + typeName + " (" + error + "): left unchanged");
    }
}
