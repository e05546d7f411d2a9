"""Python signatures from the option table (impactset._impactset._option_fields()): the keywords
of sample(), run(), sets() and BatchJob() are its rows, with their defaults, types and help."""
import inspect
import typing

from . import _impactset


_TYPES = {"bool": bool, "int": int, "float": float, "str": str,
          "tuple[int, int]": typing.Tuple[int, int]}


def option_parameters(surface):
    """The keyword-only parameters of one surface, in the option table's order, with that
    surface's defaults (a batch's differ: 4096 samples per state and a hold-out that follows
    them)."""
    rows = [f for f in _impactset._option_fields() if surface in f["surfaces"]]
    key = "batch_default" if surface == "batch" else "default"
    params = []
    for f in rows:
        kind = _TYPES[f["type"]]
        if f["choices"]:
            kind = typing.Literal[tuple(f["choices"])]
        if f["optional"]:
            kind = typing.Optional[kind]
        params.append(inspect.Parameter(f["name"], inspect.Parameter.KEYWORD_ONLY,
                                        default=f[key], annotation=kind))
    return rows, params


def option_help(rows, surface):
    key = "batch_default" if surface == "batch" else "default"
    lines = ["", "Options (one table drives these keywords, the command line and the files):"]
    for f in rows:
        default = f["unset"] if f[key] is None and f["unset"] else repr(f[key])
        if f["from_problem"]:
            default = "each state's" if surface == "batch" else "the problem's"
        lines.append(f"  {f['name']}: {f['doc']} (default: {default})")
    return "\n".join(lines)


def with_options(name, call, head, surface, extras, returns):
    """A function `name(head, *, <the surface's options>, <extras>)` that checks its keywords
    like any Python function and hands the options given to `call` as a dict."""
    rows, params = option_parameters(surface)
    head, head_type = head
    params = ([inspect.Parameter(head, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                 annotation=head_type)] + params
              + [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=d, annotation=a)
                 for k, a, d in extras])
    signature = inspect.Signature(params, return_annotation=returns)
    names = {f["name"] for f in rows}
    accepted = names | {k for k, _, _ in extras}

    # Binds by hand what Signature.bind would (the same TypeErrors): bind costs about 12 us, as
    # much as a one-sample call itself, and pipelines call sample() once per state.
    def function(*args, **kwargs):
        if len(args) > 1:
            raise TypeError(f"{name}() takes 1 positional argument but {len(args)} were given")
        if args:
            if head in kwargs:
                raise TypeError(f"{name}() got multiple values for argument '{head}'")
            first = args[0]
        elif head in kwargs:
            first = kwargs.pop(head)
        else:
            raise TypeError(f"{name}() missing 1 required positional argument: '{head}'")
        for k in kwargs:
            if k not in accepted:
                raise TypeError(f"{name}() got an unexpected keyword argument '{k}'")
        options = {k: v for k, v in kwargs.items() if k in names}
        rest = [kwargs.get(k, d) for k, _, d in extras]
        return call(first, options, *rest)

    function.__name__ = function.__qualname__ = name
    function.__module__ = "impactset"
    function.__signature__ = signature
    text = str(signature).replace("typing.", "").replace("impactset._impactset.", "")
    function.__doc__ = f"{name}{text}\n" + call.__doc__.split("\n", 1)[1] + option_help(rows, surface)
    return function
