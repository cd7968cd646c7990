import engine

engine.register("toy", "tests.core.toygame")
