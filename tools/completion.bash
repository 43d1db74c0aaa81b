# bash completion for vkfluid: the commands, each command's options (from
# `vkfluid COMMAND --list-options`), scene names (from `vkfluid scenes`),
# views, and files or folders where an option takes one. Installed as
# share/bash-completion/completions/vkfluid; in a clone: source tools/completion.bash

_vkfluid_scenes()
{
    "$1" scenes 2>/dev/null | sed -n 's/^\([a-z0-9][a-z0-9-]*\) .*/\1/p'
}

_vkfluid()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} prog=${COMP_WORDS[0]}
    local i cmd="" word
    # the command: the first word after the program that is not an option
    # (a global --device takes a value)
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        case $word in
        --device) ((i++)) ;;
        -*) ;;
        *)
            cmd=$word
            break
            ;;
        esac
    done
    COMPREPLY=()
    if [[ -z $cmd ]]; then
        if [[ $cur == -* ]]; then
            mapfile -t COMPREPLY < <(compgen -W "--help --version --device" -- "$cur")
        else
            mapfile -t COMPREPLY < <(compgen -W "$("$prog" --help 2>/dev/null | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')" -- "$cur")
        fi
        return
    fi
    case $prev in
    --scene)
        mapfile -t COMPREPLY < <(compgen -W "$(_vkfluid_scenes "$prog")" -- "$cur"; compgen -f -X '!*.json' -- "$cur")
        return
        ;;
    --export)
        [[ $cmd == scenes ]] && mapfile -t COMPREPLY < <(compgen -W "$(_vkfluid_scenes "$prog")" -- "$cur") ||
            mapfile -t COMPREPLY < <(compgen -d -- "$cur")
        return
        ;;
    --out | --screenshot-dir | --model)
        mapfile -t COMPREPLY < <(compgen -d -- "$cur")
        return
        ;;
    --replay | --record | --screenshot | --video | --diff)
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return
        ;;
    --solver)
        mapfile -t COMPREPLY < <(compgen -W "sph grid height grid3d all" -- "$cur")
        return
        ;;
    --vsync)
        mapfile -t COMPREPLY < <(compgen -W "on off" -- "$cur")
        return
        ;;
    --export-compress)
        mapfile -t COMPREPLY < <(compgen -W "none zlib" -- "$cur")
        return
        ;;
    --render)
        [[ $cmd == bench ]] && return
        # the views of the scene on the line, else those of every solver
        local scene="" views
        for ((i = i + 1; i < COMP_CWORD; i++)); do
            word=${COMP_WORDS[i]}
            if [[ $word == --scene ]]; then
                scene=${COMP_WORDS[i + 1]}
                break
            fi
            [[ $word != -* && ${COMP_WORDS[i - 1]} != --* ]] && scene=$word && break
        done
        if [[ -n $scene ]]; then
            views=$("$prog" scenes "$scene" 2>/dev/null | sed -n 's/^views[^:]*: \([a-z0-9|-]*\);.*/\1/p' | tr '|' ' ')
        fi
        [[ -z ${views:-} ]] && views=$("$prog" run --help 2>/dev/null |
            sed -n '/^views/,/^  default/s/^  [a-z0-9]*  *\([a-z].*\)/\1/p' | grep -v '^views' | tr -d ',')
        mapfile -t COMPREPLY < <(compgen -W "$views" -- "$cur")
        return
        ;;
    esac
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$("$prog" "$cmd" --list-options 2>/dev/null)" -- "$cur")
        return
    fi
    case $cmd in
    run | capture | view | scenes)
        mapfile -t COMPREPLY < <(compgen -W "$(_vkfluid_scenes "$prog")" -- "$cur"; [[ $cmd == scenes ]] || compgen -f -X '!*.json' -- "$cur")
        ;;
    compare)
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        ;;
    esac
}
complete -F _vkfluid vkfluid
