# frozen_string_literal: true

# `.json` suffix optional; responses are JSON either way (errors too).
Rails.application.routes.draw do
  defaults format: :json do
    resources :people do
      resources :projects
    end
    resources :projects do
      resources :tasks
    end
    resources :tasks
  end
end
